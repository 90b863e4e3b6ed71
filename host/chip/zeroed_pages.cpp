#include "chip/zeroed_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace db::chip {

namespace {
constexpr std::size_t HUGE_PAGE = std::size_t(2) << 20;
std::size_t rounded(std::size_t bytes) { return (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1); }
}  // namespace

void* map_zeroed_pages(std::size_t bytes) {
  const std::size_t len = rounded(bytes);
  // Map a huge page more than needed and give back the ends, so that what is kept starts on a
  // huge page's boundary (the kernel backs only aligned 2 MB ranges with huge pages).
  void* raw = mmap(nullptr, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + HUGE_PAGE - 1) & ~std::uintptr_t(HUGE_PAGE - 1);
  if (aligned > start) munmap(raw, aligned - start);
  const std::size_t tail = (start + len + HUGE_PAGE) - (aligned + len);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + len), tail);
  void* p = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
  madvise(p, len, MADV_HUGEPAGE);  // advice only: without huge pages the buffer still works
#endif
  return p;
}

void unmap_zeroed_pages(void* p, std::size_t bytes) noexcept {
  if (p) munmap(p, rounded(bytes));
}

}  // namespace db::chip
