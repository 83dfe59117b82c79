// A run-time order (SortOptions::comparator): the host replaces this file's text, for a program
// built with one, by the user's comparator as `int gs_user_before(key_t a, key_t b)` and
// `#define GPUSORT_USER_ORDER` (src/runtime/kernel_sources.cpp). Empty otherwise.
