// The CUB peer of gpusort-bench: CUB's DeviceRadixSort / DeviceMergeSort, its segmented sorts and
// top-k, and a device-to-device copy, timed with cudaEvents. Built with nvcc into
// libgpusort_cub_peer.so (bench only; never into the gpusort library) and loaded by gpusort-bench
// with dlopen, so the benchmark runs without CUDA.
//
// Key kinds: 0 = u32, 1 = u64, 2 = f32, 3 = f64, 4 = f16 (__half), 5 = bf16 (__nv_bfloat16). Value kinds: 0 = none, 1 = u32, 2 = u64. Offset kinds (the
// integer type of num_items, which picks CUB's kernel configuration): 0 = int, 1 = int64_t.
// Every sort function copies n keys (and values) from host memory to the device, then times
// `repeats` sorts (each on a fresh device copy of the input; copies and temporary-storage
// allocation outside the timed region) and returns the median in milliseconds. When out_keys /
// out_values are not null, the last sorted output is copied back there for verification.
// A negative return is an error: -1 no CUDA device, -2 out of memory, -3 other CUDA error,
// -4 bad argument, -5 not supported for these sizes.
#pragma once
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPUSORT_CUB_PEER_ABI 7

int cub_peer_abi(void);
// CUB_VERSION of the headers the peer was built with (MMMmmmpp: 300001 is 3.0.1).
int cub_peer_cub_version(void);
// Number of CUDA devices (0 when there is no driver or device); selects `device` for later calls.
int cub_peer_init(int device, char* name, size_t name_bytes);
double cub_radix_sort_keys(int offset_kind, int key_kind, const void* keys, size_t n, int repeats, void* out_keys);
double cub_radix_sort_pairs(int offset_kind, int key_kind, int value_kind, const void* keys, const void* values,
                            size_t n, int repeats, void* out_keys, void* out_values);
double cub_merge_sort_keys(int offset_kind, int key_kind, const void* keys, size_t n, int repeats, void* out_keys);
double cub_merge_sort_pairs(int offset_kind, int key_kind, int value_kind, const void* keys, const void* values,
                            size_t n, int repeats, void* out_keys, void* out_values);
// cudaMemcpy device-to-device of `bytes`: median ms of `repeats` copies.
double cub_copy_d2d_ms(size_t bytes, int repeats);

// Fixed-size records (gpusort-records-bench): n records of record_bytes each, sorted stably by the
// key_bytes bytes at key_offset compared as unsigned bytes, lexicographically (the CLI's
// --key OFFSET:bytesK), in one of CUB's forms (cub_records.cu):
//   0  the records themselves through DeviceMergeSort::StableSortKeys and a comparator on the key
//      (only 100-byte records with the key 0:bytes10: the key's byte positions must be known at
//      compile time, or the records would leave registers for local memory);
//   1  (key, u32 record index) pairs through DeviceMergeSort::StableSortPairs, then a gather;
//   2  the same pairs through DeviceRadixSort::SortPairs with a decomposer of the key's words.
// Forms 1 and 2 take any record size, any offset and keys of 1 to 16 bytes; the time includes
// making the pairs and the gather. Returns the median ms of the whole (-5: the form does not take
// these sizes); *sort_ms, when not null, gets the median ms of the CUB sort call alone.
double cub_sort_records(int offset_kind, int form, const void* records, size_t n, size_t record_bytes,
                        size_t key_offset, size_t key_bytes, int repeats, void* out_records, double* sort_ms);

// Segmented sorts (gpusort-bench segmented; cub_segmented.cu). cub_seg_open puts n f32 keys on the
// device, cut into `segments` segments by offsets (segments + 1 of them, host memory: 0, ...,
// n, non-decreasing, empty segments allowed); row_length != 0 says the segments are uniform rows of
// that length (the forms that find an element's segment divide instead of searching the offsets).
// Returns a handle for cub_seg_sort (null on failure, *status then the error code) that
// cub_seg_close frees.
// cub_seg_sort times one of CUB's forms, `repeats` times after a warm-up, each from a fresh device
// copy of the keys, out of place, and returns the median ms (the last result copied to out_keys and
// out_indices when not null). index_kind: 0 keys alone, 1 int32 indices, 2 int64 indices (each key's
// position within its segment, as torch.sort(dim=-1) returns: made by a kernel inside the timed
// region, since an argsort has to make them). offset_kind: 0 int32 offsets (num_items int), 1 int64.
// entry:
//   0  DeviceSegmentedSort::SortKeys / SortPairs            (begin = offsets, end = offsets + 1)
//   1  DeviceSegmentedSort::StableSortKeys / StableSortPairs
//   2  DeviceSegmentedRadixSort::SortKeys / SortPairs        (n and segments below 2^31)
//   3  one DeviceRadixSort over 64-bit (segment << 32 | ordered key) over the bits that vary, made
//      and unpacked by kernels in the timed region (the keys are then the low halves)
//   4  DeviceRadixSort once per segment, a loop on the host   (64 segments at most)
// -5: the entry does not take this shape (or int32 offsets for more than INT32_MAX keys).
void* cub_seg_open(const float* keys, size_t n, const uint64_t* offsets, size_t segments, uint64_t row_length,
                   double* status);
double cub_seg_sort(void* input, int entry, int offset_kind, int index_kind, int repeats, void* out_keys,
                    void* out_indices);
void cub_seg_close(void* input);

// Top-k (gpusort-bench topk; cub_topk.cu): the k largest keys of each row. cub_topk_open puts rows x
// length f32 keys on the device and returns a handle for cub_topk (null on failure, *status then the
// error code) that cub_topk_close frees. cub_topk times one of CUB's top-k forms, `repeats` times
// after a warm-up (the keys are only read, so nothing is reset between calls), and returns the median
// ms; the last result goes to out_keys (rows x k) and out_indices (rows x k positions within the row)
// when not null. CUB returns each row's k unsorted, and any of the keys equal to the k-th.
// index_kind: 0 keys alone (MaxKeys), 1 int32 positions, 2 int64 (MaxPairs, the values a counting
// iterator: nothing is made). entry:
//   0  DeviceTopK::MaxKeys / MaxPairs per row (one call for one row, else a loop over the rows);
//      offset_kind: num_items and k int32 (0) or int64 (1)                          (CUB 3.3 and later)
//   1  DeviceBatchedTopK::MaxKeys / MaxPairs, the row length and k run-time values under a compile-
//      time bound (1024, 131072 or 2^21, the tightest that holds the row); offset_kind: their type
//      and the row count's, int32 (0) or int64 (1)                                   (CUB 3.5 and later)
//   2  DeviceBatchedTopK with the row length and k compile-time constants (cuda::args::constant), for
//      issue 53's row shapes only; offset_kind 0                                      (CUB 3.5 and later)
// Every form asks for non-deterministic, unsorted results (CUB's fastest; its only ones for DeviceTopK).
// -5: the entry is not in the CUB the peer was built with, or does not take this shape or k.
// cub_topk_entries: bit e set when entry e is in the CUB the peer was built with.
int cub_topk_entries(void);
void* cub_topk_open(const float* keys, uint64_t rows, uint64_t length, double* status);
double cub_topk(void* input, int entry, int offset_kind, int index_kind, uint64_t k, int repeats, void* out_keys,
                void* out_indices);
void cub_topk_close(void* input);

typedef int (*cub_peer_abi_fn)(void);
typedef int (*cub_peer_cub_version_fn)(void);
typedef int (*cub_peer_init_fn)(int, char*, size_t);
typedef double (*cub_sort_keys_fn)(int, int, const void*, size_t, int, void*);
typedef double (*cub_sort_pairs_fn)(int, int, int, const void*, const void*, size_t, int, void*, void*);
typedef double (*cub_copy_fn)(size_t, int);
typedef void* (*cub_seg_open_fn)(const float*, size_t, const uint64_t*, size_t, uint64_t, double*);
typedef double (*cub_seg_sort_fn)(void*, int, int, int, int, void*, void*);
typedef void (*cub_seg_close_fn)(void*);
typedef int (*cub_topk_entries_fn)(void);
typedef void* (*cub_topk_open_fn)(const float*, uint64_t, uint64_t, double*);
typedef double (*cub_topk_fn)(void*, int, int, int, uint64_t, int, void*, void*);
typedef void (*cub_topk_close_fn)(void*);
typedef double (*cub_sort_records_fn)(int, int, const void*, size_t, size_t, size_t, size_t, int, void*, double*);

#ifdef __cplusplus
}
#endif
