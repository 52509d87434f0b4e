// history.csv: one row per norm check, numbers printed so they read back bit-identical.
#pragma once

#include <string>
#include <vector>

#include "run_output.hpp"

namespace fdsolve::output {

/// The header line of history.csv (without the newline).
inline constexpr const char* history_header =
    "iteration,time,norm_l2,norm_linf,min,max,mean,wall_seconds";

/// The whole file: the header and one line per row.
std::string format_history_csv(const std::vector<HistoryRow>& rows);

/// Reads back what format_history_csv wrote (bit-identical numbers); throws OutputError when
/// the header differs (a file of another version) or a line is malformed.
std::vector<HistoryRow> parse_history_csv(const std::string& text);

}  // namespace fdsolve::output
