// Formats history.csv (see history_csv.hpp).
#include "history_csv.hpp"

#include "format_number.hpp"

namespace fdsolve::output {

std::string format_history_csv(const std::vector<HistoryRow>& rows) {
  std::string text = std::string(history_header) + "\n";
  for (const HistoryRow& row : rows) {
    text += std::to_string(row.iteration);
    for (const double value :
         {row.time, row.norm_l2, row.norm_linf, row.min, row.max, row.mean, row.wall_seconds}) {
      text += ',';
      text += format_double(value);
    }
    text += '\n';
  }
  return text;
}

}  // namespace fdsolve::output
