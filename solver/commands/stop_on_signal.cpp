// `fdsolve run`'s signals (see stop_on_signal.hpp).
#include "stop_on_signal.hpp"

namespace fdsolve {

std::atomic<bool> g_stop{false};
volatile std::sig_atomic_t g_signal = 0;

namespace {

extern "C" void request_stop(int signal) {
  g_signal = signal;
  g_stop.store(true);
}

}  // namespace

StopOnSignal::StopOnSignal() {
  g_stop.store(false);
  g_signal = 0;
  struct sigaction action {};
  action.sa_handler = request_stop;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &old_int_);
  sigaction(SIGTERM, &action, &old_term_);
}

StopOnSignal::~StopOnSignal() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

}  // namespace fdsolve
