#pragma once
// gpusort: sorting on GPUs through OpenCL and CUDA. Include this one header.
#include "gpusort/argsort.hpp"
#include "gpusort/context.hpp"
#include "gpusort/device.hpp"
#include "gpusort/device_array.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/key_order.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/multi_device.hpp"
#include "gpusort/native.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"
#include "gpusort/version.hpp"
