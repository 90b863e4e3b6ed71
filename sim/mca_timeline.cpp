// See mca_timeline.h.
#include "mca_timeline.h"

namespace db::sim {

McaTimeline::McaTimeline(std::shared_ptr<McaNode> node) : McaTimeline(std::move(node), Cards{}) {}

McaTimeline::McaTimeline(std::shared_ptr<McaNode> node, Cards cards) : node_(std::move(node)), cards_(cards) {}

McaTimeline::Mark McaTimeline::mark() const {
  const McaHost::Stats& h = node_->host().stats();
  return Mark{h.accesses,
              h.words,
              node_->bus().stats().busy,
              h.overhead,
              h.on_bus,
              node_->host().now(),
              node_->polls().count,
              node_->polls().time,
              software_};
}

void McaTimeline::host_computes(std::uint64_t clocks) {
  const std::uint64_t now = chip_clocks_at(node_->host().now());
  const sc_core::sc_time d = chip_clock_time(now + clocks) - chip_clock_time(now);
  node_->host().idle(d);
  software_ += d;
}

void McaTimeline::search_started() {
  const Mark m = mark();
  download_seconds_ = (m.now - download_start_).to_seconds();
  start_ = m;
}

McaTimeline::Figures McaTimeline::figures() const {
  const Mark m = mark();
  Figures f;
  f.accesses = m.accesses - start_.accesses;
  f.words = m.words - start_.words;
  f.bus_busy_seconds = (m.busy - start_.busy).to_seconds();
  f.host_overhead_seconds = (m.overhead - start_.overhead).to_seconds();
  f.host_io_seconds = f.host_overhead_seconds + (m.on_bus - start_.on_bus).to_seconds();
  f.status_polls = m.polls - start_.polls;
  f.host_poll_seconds = (m.poll_time - start_.poll_time).to_seconds();
  f.simulated_seconds = (m.now - start_.now).to_seconds();
  f.download_seconds = download_seconds_;
  f.host_software_seconds = (m.software - start_.software).to_seconds();
  return f;
}

}  // namespace db::sim
