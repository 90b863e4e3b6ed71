// See mca_node.h.
#include "mca_node.h"

#include <stdexcept>

#include <fmt/format.h>

#include "chip/rtl_backend.h"
#include "mca_address.h"
#include "mca_chip_backend.h"

namespace db::sim {

McaNode::McaNode(sc_core::sc_module_name name, McaNodeOptions options)
    : sc_module(name),
      options_(std::move(options)),
      bus_("bus", options_.timing),
      host_("host", options_.timing.host_overhead) {
  if (options_.cards < 1 || options_.cards > kSlots) {
    throw std::invalid_argument(fmt::format("a node holds 1-{} cards, not {}", kSlots, options_.cards));
  }
  const int most = options_.cards * kChipsPerCard;
  if (options_.chips < 1 || options_.chips > most) {
    throw std::invalid_argument(fmt::format("a node drives 1-{} chips ({} cards of {}), not {}", most, options_.cards,
                                            kChipsPerCard, options_.chips));
  }
  host_.socket.bind(bus_.master_port(options_.host_level));
  for (int c = 0; c < options_.cards; ++c) {
    cards_.push_back(std::make_unique<McaCard>(fmt::format("card{}", c).c_str()));
    bus_.slot_port(c).bind(cards_.back()->socket);
  }
  for (int i = 0; i < options_.chips; ++i) {
    sockets_.push_back(
        std::make_unique<ChipSocket>(fmt::format("chip{}", i).c_str(), chip::make_backend(options_.chip_backend)));
    cards_[std::size_t(card_of(i))]->chip_port(slot_of(i)).bind(sockets_.back()->socket);
    ChipSocket* socket = sockets_.back().get();
    cards_[std::size_t(card_of(i))]->connect_idle_pin(
        slot_of(i), [socket](const sc_core::sc_time& t) { return socket->idle_at(t); });
  }
}

McaNode::~McaNode() = default;

void McaNode::start() {
  if (started_) return;
  if (sc_core::sc_get_status() == sc_core::SC_ELABORATION) sc_core::sc_start(sc_core::SC_ZERO_TIME);
  // POS: check each card's adapter ID and set its enable bit.
  for (int c = 0; c < options_.cards; ++c) {
    const std::uint16_t id =
        std::uint16_t(host_.pos_read(c, kPosIdLow) | std::uint32_t(host_.pos_read(c, kPosIdHigh)) << 8);
    if (id != kDeepBlueCardId) throw McaError(fmt::format("card in slot {}: adapter ID 0x{:04X}", c, id), kPosIdLow);
    host_.pos_write(c, kPosOption, kPosEnableBit);
  }
  started_ = true;
}

void McaNode::sync() {
  for (auto& s : sockets_) s->sync(host_.now());
}

std::uint64_t McaNode::idle_chips(std::uint64_t chips) {
  std::uint64_t idle = 0;
  for (int card = 0; card < options_.cards; ++card) {
    const std::uint64_t on_card = (chips >> (card * kChipsPerCard)) & 0xFF;
    if (!on_card) continue;
    const sc_core::sc_time before = host_.now();
    const std::uint32_t word = host_.read(card_status_port(card));
    count_poll(host_.now() - before);
    idle |= std::uint64_t(word & 0xFF & on_card) << (card * kChipsPerCard);
  }
  return idle;
}

void McaNode::broadcast(const std::vector<chip::WriteBlock>& writes) {
  const int cards = card_of(chips() - 1) + 1;
  for (int card = 0; card < cards; ++card) {
    for (const chip::WriteBlock& b : writes) {
      for (std::size_t i = 0; i < b.data.size(); ++i) {
        const std::uint32_t addr = broadcast_address(card, b.addr + std::uint32_t(i));
        if (host_.transfer(true, addr, b.data[i]).device_error) {
          throw McaError(fmt::format("card {}: a chip refused the broadcast write to register 0x{:X}", card,
                                     b.addr + std::uint32_t(i)),
                         addr);
        }
      }
    }
  }
}

std::unique_ptr<chip::ChipBackend> McaNode::backend(int i, bool bursts) {
  if (i < 0 || i >= chips()) throw std::out_of_range(fmt::format("chip {} of a node of {}", i, chips()));
  return std::make_unique<McaChipBackend>(*this, i, bursts);
}

}  // namespace db::sim
