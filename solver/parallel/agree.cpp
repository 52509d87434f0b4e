// Agreeing on set-up failures over the ranks (see agree.hpp).
#include "agree.hpp"

#include <cstring>
#include <stdexcept>
#include <vector>

#include "case_reader.hpp"
#include "exit_codes.hpp"

namespace fdsolve::parallel {
namespace {

bool g_agreed = false;

}  // namespace

int exit_code_of(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const PeerFailure& e) {
    return e.code();
  } catch (const InputError&) {
    return kExitBadInput;
  } catch (const std::invalid_argument&) {
    return kExitBadInput;
  } catch (...) {
    return kExitRuntime;
  }
}

bool failure_agreed() { return g_agreed; }
void set_failure_agreed() { g_agreed = true; }

void settle(const Comm& comm, const std::exception_ptr& error, int code) {
  const std::vector<char> bytes = comm.allgather(&code, sizeof code);
  std::vector<int> codes(static_cast<std::size_t>(comm.size()));
  std::memcpy(codes.data(), bytes.data(), bytes.size());
  for (int r = 0; r < comm.size(); ++r) {
    if (codes[static_cast<std::size_t>(r)] == 0) continue;
    set_failure_agreed();
    if (r == comm.rank()) std::rethrow_exception(error);
    throw PeerFailure(codes[static_cast<std::size_t>(r)]);
  }
}

}  // namespace fdsolve::parallel
