// Process exit codes (docs/commands.md, "Exit codes").
#pragma once

namespace fdsolve {

enum ExitCode : int {
  kExitOk = 0,             // converged / reached end / valid
  kExitRuntime = 1,        // device or I/O failure
  kExitBadInput = 2,       // bad input or usage
  kExitMaxIterations = 3,  // stopped without converging: max_iterations, stalled or the wall-time
                           // limit (results written)
  kExitDiverged = 4,       // non-finite values or blow-up (last state written)
};

}  // namespace fdsolve
