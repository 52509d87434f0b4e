// The headers that most host translation units of the solver parse, compiled once per target
// (target_precompile_headers in cmake/FdsolvePrecompiled.cmake; -DFDSOLVE_PRECOMPILE_HEADERS=OFF
// builds without, as every source still includes what it uses). Build-only: nothing here
// changes what a translation unit means.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

// fmt 9 gives no explicit instantiation declaration for detail::vformat_to<char>, which spdlog's
// logger calls directly, so every translation unit that logs instantiated it, and with it all of
// fmt's formatting code (Dragonbox, the float writers): 2-3 s of -O3 code generation per file,
// a third of the host code's compile time. libfmt compiles exactly this instantiation (format.cc);
// declaring it here makes each file call that one. fmt 10 declares it itself.
#if defined(FMT_VERSION) && FMT_VERSION >= 90000 && FMT_VERSION < 100000 && \
    !defined(FMT_HEADER_ONLY)
extern template void fmt::detail::vformat_to<char>(fmt::detail::buffer<char>&, fmt::string_view,
                                                   fmt::format_args, fmt::detail::locale_ref);
#endif
