#pragma once
// A request that make_plan must refuse: plan() throws gpusort::Error with `code`, and its message
// names `part` (so that each refusal is seen to be refused for the reason the test means).
#include <gtest/gtest.h>

#include <string>

#include "gpusort/plan.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {

inline void expect_plan_refused(const SortRequest& r, errc code, const std::string& part) {
  try {
    plan(test_context(), r);
    ADD_FAILURE() << "planned a request that should be refused (" << part << ")";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

}  // namespace gpusort::test
