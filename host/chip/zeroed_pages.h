// Large zero-filled buffers that are touched a little at a time (the chip model's slow-evaluation
// memo: 10 MB a chip). From calloc they fault in 4 KB at a time, and a process with hundreds of
// chips (a simulated 30-node cluster: 480) spent a quarter of its run in those page faults. Mapped
// here on 2 MB boundaries with the kernel asked for transparent huge pages, one fault zeroes 2 MB.
#pragma once

#include <cstddef>

namespace db::chip {

// bytes of zeroed memory, aligned to 2 MB, huge pages where the system offers them (elsewhere
// ordinary pages). Throws std::bad_alloc when the system has no memory to map.
void* map_zeroed_pages(std::size_t bytes);

// Returns a buffer from map_zeroed_pages() with the same size.
void unmap_zeroed_pages(void* p, std::size_t bytes) noexcept;

}  // namespace db::chip
