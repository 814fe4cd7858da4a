/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_LINK_SPLIT_PAIR_H
#define DIRECT_LINK_SPLIT_PAIR_H

#include "direct-link-reference-engine.h"

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup direct-link-protocol
 * \brief Both halves of a split direct link (DirectLinkReferenceEngine::SetLocalEndpoint) in
 *        one process, as one DirectLinkLinkEngine: the structure of a link whose ends run on
 *        different ranks, for tests, the fuzz target and checks of a split setup.
 *
 * AdvanceTo() steps side A's half, then side B's, slot by slot, and then hands over the slot's
 * callbacks in the two-sided engine's order (deliveries of A then B, losses of A then B,
 * events of A then B). Every LineRecord goes through
 * EncodeLineRecord / DecodeLineRecord and is handed to the other half before it is due: at
 * once, or (SetRelaySeed) at a random slot in (x, x + L] for the record of slot x, in slot
 * order. Deliveries, losses, events and endpoints are exactly those of the two-sided
 * DirectLinkReferenceEngine on the same inputs; GetTruth() and GetPending() add the two
 * halves' shares, except that a corrupted micro-packet still on the line (sent in the last
 * L slots) is not yet in TruthCounters::corruptedSent (a half counts it on arrival).
 */
class DirectLinkSplitPair : public DirectLinkLinkEngine
{
  public:
    /**
     * \brief Build both halves.
     * \param config the configuration (OneWayDelaySlots >= 1; std::invalid_argument naming it
     *        otherwise).
     * \param aToB the error process of direction A -> B (applied by B's half; null = none).
     * \param bToA the error process of direction B -> A (applied by A's half; null = none).
     */
    DirectLinkSplitPair(const DirectLinkConfig& config, Ptr<BitErrorProcess> aToB,
                        Ptr<BitErrorProcess> bToA);

    /**
     * \brief Relay each record at a random slot before it is due (seeded), instead of at once.
     * \param seed the seed of the relay timing.
     */
    void SetRelaySeed(uint64_t seed);

    const DirectLinkConfig& GetConfig() const override;
    void OfferMessage(uint32_t side, uint64_t messageId, uint32_t dstCpu, uint32_t srcCpu,
                      uint32_t msgClass, uint32_t vc, const std::vector<uint8_t>& bytes,
                      const DirectLinkMessageFlags& flags = DirectLinkMessageFlags()) override;
    /// \param slot run both halves' slots before this one.
    void AdvanceTo(uint64_t slot) override;
    uint64_t GetSlot() const override;
    /// \return GetSlot(): the halves step every slot.
    uint64_t NextEventSlot() override;
    /// \param side the sending side. \return the two halves' shares added (modulo 2^64).
    uint64_t GetPending(uint32_t side) const override;
    void SetDrainInterval(uint32_t side, uint32_t vc, uint32_t interval) override;
    /// \param side a side. \return its endpoint (in its half).
    const DirectLinkEndpointState& GetEndpoint(uint32_t side) const override;
    void SetDeliveryCallback(DeliveryCallback cb) override;
    void SetLossCallback(LossCallback cb) override;
    void SetEventCallback(EventCallback cb) override;

    /// \param side a side. \return the two halves' truth counters of that side added.
    DirectLinkReferenceEngine::TruthCounters GetTruth(uint32_t side) const;
    /// \param side a side. \return its half.
    DirectLinkReferenceEngine& GetHalf(uint32_t side);
    /// \return the bytes of the encoded records relayed so far.
    uint64_t GetRelayedBytes() const;

  private:
    /// \brief Hand the records released by slot m_slot to the other halves.
    void Relay();

    /// The callbacks of one half in the slot being run.
    struct SlotCallbacks
    {
        std::vector<DirectLinkDeliveredMessage> deliveries; //!< in order
        std::vector<DirectLinkLostMessage> losses;          //!< in order
        std::vector<DirectLinkEvent> events;                //!< in order
    };

    std::array<std::unique_ptr<DirectLinkReferenceEngine>, 2> m_half; //!< by local side
    /// by sending side: (release slot, encoded record), in slot order
    std::array<std::deque<std::pair<uint64_t, std::vector<uint8_t>>>, 2> m_relay;
    std::array<uint64_t, 2> m_lastRelease{{0, 0}}; //!< keeps the releases in slot order
    bool m_random{false};                          //!< random relay slots (SetRelaySeed)
    std::mt19937_64 m_rng;                         //!< relay timing
    uint64_t m_slot{0};                            //!< next slot
    uint64_t m_bytes{0};                           //!< relayed bytes
    std::array<SlotCallbacks, 2> m_pendingCb;      //!< by half, the slot's callbacks
    DeliveryCallback m_deliveryCb;                 //!< the user's
    LossCallback m_lossCb;                         //!< the user's
    EventCallback m_eventCb;                       //!< the user's
};

} // namespace ns3

#endif /* DIRECT_LINK_SPLIT_PAIR_H */
