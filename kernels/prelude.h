// gpusort kernel dialect: OpenCL C 1.2 with these macros, compiled unchanged by OpenCL
// (clBuildProgram) and by NVRTC as CUDA C++. Kernels use only the names defined here for address
// spaces, ids, barriers, atomics and fixed-width integers; they never use floating-point types
// (float keys travel as their bit patterns, see keys.h), so no fp64 extension is needed.
#ifndef GPUSORT_PRELUDE_H
#define GPUSORT_PRELUDE_H

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define GS_CUDA 1
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char i8;
typedef short i16;
typedef int i32;
typedef long long i64;

#define KERNEL extern "C" __global__ void
#define DEVICE_FN static __device__ __forceinline__
#define GLOBAL
#define LOCAL
#define LOCAL_ARRAY __shared__
#define CONSTANT const
#define RESTRICT __restrict__
// Dynamic local memory: OpenCL passes it as the last kernel parameter, CUDA as the launch's
// shared-memory size. Write `KERNEL k(args GS_DYNAMIC_LOCAL)` and `GS_DECLARE_DYNAMIC_LOCAL(T, name)`.
#define GS_DYNAMIC_LOCAL
#define GS_DECLARE_DYNAMIC_LOCAL(T, name) \
  extern __shared__ u64 gs_dynamic_local[];    \
  T* name = (T*)gs_dynamic_local

#define LOCAL_ID() ((u32)threadIdx.x)
#define LOCAL_SIZE() ((u32)blockDim.x)
#define GROUP_ID() ((u64)blockIdx.x)
#define NUM_GROUPS() ((u64)gridDim.x)
#define GLOBAL_ID() ((u64)blockIdx.x * blockDim.x + threadIdx.x)
#define BARRIER() __syncthreads()
#define GLOBAL_BARRIER() __syncthreads()

#define ATOMIC_ADD_U32(p, v) atomicAdd((unsigned int*)(p), (unsigned int)(v))
#define ATOMIC_ADD_U64(p, v) atomicAdd((unsigned long long*)(p), (unsigned long long)(v))
#define ATOMIC_OR_U32(p, v) atomicOr((unsigned int*)(p), (unsigned int)(v))
#define ATOMIC_LOAD_U32(p) (*(volatile unsigned int*)(p))
#define MEM_FENCE_GLOBAL() __threadfence()
// Programmatic dependent launch (compute capability 9.0+; rt::Launch::overlap_previous): a kernel
// launched to overlap its predecessor on the queue may start while that one finishes, and must pass
// GS_WAIT_PREVIOUS_GRID before it touches memory earlier work wrote (it returns once the predecessor
// has finished and its writes are visible; at once for an ordinary launch). GS_ALLOW_NEXT_GRID lets an
// overlapping successor start once every block of this grid has passed it. Elsewhere both are empty.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define GS_WAIT_PREVIOUS_GRID() asm volatile("griddepcontrol.wait;" ::: "memory")
#define GS_ALLOW_NEXT_GRID() asm volatile("griddepcontrol.launch_dependents;" :::)
#else
#define GS_WAIT_PREVIOUS_GRID()
#define GS_ALLOW_NEXT_GRID()
#endif

#else  // OpenCL C
#define GS_OPENCL 1
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
typedef uchar u8;
typedef ushort u16;
typedef uint u32;
typedef ulong u64;
typedef char i8;
typedef short i16;
typedef int i32;
typedef long i64;

#define KERNEL __kernel void
#define DEVICE_FN static inline
#define GLOBAL __global
#define LOCAL __local
#define LOCAL_ARRAY __local
#define CONSTANT __constant
#define RESTRICT restrict
#define GS_DYNAMIC_LOCAL , __local u64* gs_dynamic_local
#define GS_DECLARE_DYNAMIC_LOCAL(T, name) __local T* name = (__local T*)gs_dynamic_local

#define LOCAL_ID() ((u32)get_local_id(0))
#define LOCAL_SIZE() ((u32)get_local_size(0))
#define GROUP_ID() ((u64)get_group_id(0))
#define NUM_GROUPS() ((u64)get_num_groups(0))
#define GLOBAL_ID() ((u64)get_global_id(0))
#define BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
#define GLOBAL_BARRIER() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)

#define ATOMIC_ADD_U32(p, v) atomic_add((p), (u32)(v))
#define ATOMIC_ADD_U64(p, v) atom_add((p), (u64)(v))
#define ATOMIC_OR_U32(p, v) atomic_or((p), (u32)(v))
#define ATOMIC_LOAD_U32(p) (*(volatile GLOBAL u32*)(p))
#define MEM_FENCE_GLOBAL() mem_fence(CLK_GLOBAL_MEM_FENCE)
#define GS_WAIT_PREVIOUS_GRID()  // OpenCL launches never overlap
#define GS_ALLOW_NEXT_GRID()
#endif

DEVICE_FN u32 gs_min_u32(u32 a, u32 b) { return a < b ? a : b; }
DEVICE_FN u32 gs_max_u32(u32 a, u32 b) { return a > b ? a : b; }
DEVICE_FN u64 gs_min_u64(u64 a, u64 b) { return a < b ? a : b; }
DEVICE_FN u64 gs_max_u64(u64 a, u64 b) { return a > b ? a : b; }

// SplitMix64's finalizer: every input bit moves every output bit (checksums, fixed scrambles).
DEVICE_FN u64 gs_mix_u64(u64 x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

#endif  // GPUSORT_PRELUDE_H
