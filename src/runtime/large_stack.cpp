#include "runtime/large_stack.hpp"

#include <pthread.h>

#include <exception>

namespace gpusort::rt {
namespace {

struct Call {
  const std::function<void()>* f;
  std::exception_ptr error;
};

void* call_on_thread(void* arg) {
  Call& call = *static_cast<Call*>(arg);
  try {
    (*call.f)();
  } catch (...) {
    call.error = std::current_exception();
  }
  return nullptr;
}

}  // namespace

void run_with_large_stack(const std::function<void()>& f) {
  Call call{&f, nullptr};
  pthread_attr_t attr;
  bool started = false;
  pthread_t thread;
  if (pthread_attr_init(&attr) == 0) {
    started = pthread_attr_setstacksize(&attr, kCompilerStackBytes) == 0 &&
              pthread_create(&thread, &attr, call_on_thread, &call) == 0;
    pthread_attr_destroy(&attr);
  }
  if (!started) return f();  // no such thread to be had: compile here, as before
  pthread_join(thread, nullptr);
  if (call.error) std::rethrow_exception(call.error);
}

}  // namespace gpusort::rt
