// The fiber launcher of emulator.hpp.
#include "emulator.hpp"

namespace emu {

Index* current = nullptr;

namespace {

constexpr std::size_t kStackBytes = 64 * 1024;

struct Fiber {
  Index index;
  ucontext_t context{};
  std::unique_ptr<char[]> stack{new char[kStackBytes]};
  bool done = false;
};

ucontext_t scheduler;
Fiber* running = nullptr;
const std::function<void()>* kernel_body = nullptr;

void trampoline() {
  (*kernel_body)();
  running->done = true;  // uc_link returns to the scheduler
}

}  // namespace

void barrier() { swapcontext(&running->context, &scheduler); }

void launch(dim3 grid, dim3 block, const std::function<void()>& body) {
  const unsigned threads = block.x * block.y * block.z;
  std::vector<Fiber> fibers(threads);
  kernel_body = &body;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        for (unsigned t = 0; t < threads; ++t) {
          Fiber& f = fibers[t];
          f.index.block = dim3(bx, by, bz);
          f.index.thread = dim3(t % block.x, t / block.x % block.y, t / (block.x * block.y));
          f.done = false;
          getcontext(&f.context);
          f.context.uc_stack.ss_sp = f.stack.get();
          f.context.uc_stack.ss_size = kStackBytes;
          f.context.uc_link = &scheduler;
          makecontext(&f.context, trampoline, 0);
        }
        // One round per barrier phase: each live fiber runs until its next barrier or its end.
        for (bool live = true; live;) {
          live = false;
          for (Fiber& f : fibers) {
            if (f.done) continue;
            running = &f;
            current = &f.index;
            swapcontext(&scheduler, &f.context);
            live = live || !f.done;
          }
        }
      }
}

}  // namespace emu
