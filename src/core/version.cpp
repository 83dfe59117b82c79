#include "gpusort/version.hpp"

namespace gpusort {

std::string_view version() noexcept { return GPUSORT_VERSION_STRING; }

}  // namespace gpusort
