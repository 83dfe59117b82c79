// What radix will run for a shape, in words (gpusort plan): the policy radix_policy.cpp chooses from
// the device's tuning row, described by describe(RadixPolicy), with the choices the driver makes
// only once it has read the keys' histogram named as such.
#include <string>
#include <vector>

#include "algorithms/drivers.hpp"
#include "algorithms/radix_policy.hpp"

namespace gpusort::algo {

std::vector<std::string> radix_plan_steps(const TempQuery& q) {
  checked_group_size(q.device, q.options.work_group_size, PortablePolicy{}.group);
  const RadixPolicy p = choose_radix_policy(q.device.description(), q.type, q.value_bytes, q.n, q.options);
  std::vector<std::string> steps = describe(p);
  if (p.path == RadixPath::onesweep || p.path == RadixPath::portable_onesweep || p.path == RadixPath::portable)
    steps.push_back("at run time: the histogram read back skips each later pass whose digit is the same for "
                    "every key" +
                    std::string(p.segments.threads ? "; the segments run only where no top digit is skewed, "
                                                     "else the ordinary passes"
                                                   : ""));
  return steps;
}

}  // namespace gpusort::algo
