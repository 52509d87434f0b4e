// history.csv: one row per check, numbers printed so they read back bit-identical.
#pragma once

#include <string>
#include <vector>

#include "run_output.hpp"

namespace fdsolve::output {

/// The header line of history.csv (without the newline) of a run without the balance columns.
/// README.md documents each column; wall_seconds stays last (restart tests compare everything
/// but it). A run that measures its balance has `integral`, `flux_<face>` per face and
/// `flux_fixed_<i>` per held region between cycles and wall_seconds (balance_columns).
inline constexpr const char* history_header =
    "iteration,time,norm_l2,norm_linf,min,max,mean,nonfinite,p50,p90,p99,linf_i,linf_j,linf_k,"
    "factor,cycles,wall_seconds";

/// The header before the cycles column: still read, its rows without cycles.
inline constexpr const char* history_header_v3 =
    "iteration,time,norm_l2,norm_linf,min,max,mean,nonfinite,p50,p90,p99,linf_i,linf_j,linf_k,"
    "factor,wall_seconds";

/// The header before the factor column: still read, its rows without a factor.
inline constexpr const char* history_header_v2 =
    "iteration,time,norm_l2,norm_linf,min,max,mean,nonfinite,p50,p90,p99,linf_i,linf_j,linf_k,"
    "wall_seconds";

/// The header of the files (and checkpoints) written before the diagnostics columns: still
/// read, its rows as not diagnosed.
inline constexpr const char* history_header_v1 =
    "iteration,time,norm_l2,norm_linf,min,max,mean,wall_seconds";

/// The names of the balance columns of a row whose balance has `count` values over `faces`
/// faces: integral, flux_x_min .. (faces of them), flux_fixed_0 .. (the rest).
std::vector<std::string> balance_columns(int faces, std::size_t count);

/// The whole file: the header and one line per row. The diagnostics cells (nonfinite to
/// linf_k) of a row that is not diagnosed are empty.
std::string format_history_csv(const std::vector<HistoryRow>& rows);

/// Reads back what format_history_csv wrote (bit-identical numbers), or a file with the
/// earlier header; throws OutputError when the header is neither or a line is malformed.
std::vector<HistoryRow> parse_history_csv(const std::string& text);

}  // namespace fdsolve::output
