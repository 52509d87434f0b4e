// summary.json: the run's outcome (Summary) as pretty-printed JSON.
#pragma once

#include <string>

#include "run_output.hpp"

namespace fdsolve::output {

std::string format_summary_json(const Summary& summary);

}  // namespace fdsolve::output
