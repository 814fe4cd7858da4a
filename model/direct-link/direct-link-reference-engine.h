/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_LINK_REFERENCE_ENGINE_H
#define DIRECT_LINK_REFERENCE_ENGINE_H

#include "direct-link-config.h"
#include "direct-link-endpoint-state.h"
#include "direct-link-link-engine.h"
#include "ns3/bit-block.h"
#include "ns3/bit-error-process.h"
#include "ns3/direct-link-flit.h"
#include "ns3/ptr.h"

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup direct-link-protocol
 * \brief The direct-link reference slot engine: both directions of one link
 *        (sides A = 0 and B = 1), one Step() per micro-packet time.
 *
 * Plain C++, advanced by calls (no ns-3 events). Each side is a
 * DirectLinkEndpointState that only sees what arrives over the line.
 *
 * **Per-slot order of Step() for slot s** (slots count from 0; both sides
 * start in Initial at slot 0):
 *  1. send: A then B, BuildTx(s) from the state at the start of slot s; the
 *     fields are encoded with DirectLinkFlit::Encode (CrcPoly), the errors that
 *     the direction's BitErrorProcess lists for slot s are flipped into the
 *     192 line bits, and the block enters the line;
 *  2. end of slot, A then B (independent of each other): the block the peer
 *     sent in slot s - L (L = OneWayDelay) is decoded with
 *     DirectLinkFlit::Decode and handed to Receive(); then NI drain; then
 *     timers (EndOfSlot);
 *  3. for A then B as the sender: the fates of its abandoned messages due in slot s are
 *     decided and its watched messages checked (see Accounting, Held open), then the
 *     verdicts due (reached L slots earlier) are reported;
 *  4. the slot callback reports both sides;
 *  5. the protocol events of the slot are reported (see below).
 *
 * **Timing reference.** A micro-packet sent in slot n is received at the end of
 * slot n + L; its effects (acks, credits, state changes) are visible to the
 * receiver's sender from slot n + L + 1. A Data micro-packet received at the
 * end of slot n + L is drained in the same slot if the NI drains then, and a
 * message whose Tail it is is delivered at slot n + L. The error stream of a
 * direction is indexed by send slot (error-process slot s = micro-packet sent
 * in slot s).
 *
 * **Accounting (nothing silently lost).** Every offered message ends, exactly
 * once, as delivered intact, delivered truncated (NetErr set; cut by a reset of
 * the receiver), delivered malformed, or lost (abandoned by a reset of its
 * sender and never received), each reported through a callback; GetPending()
 * is what is still queued or in flight. A message abandoned by its sender's
 * reset at the end of slot r is decided at the end of slot r + L, when the last
 * micro-packet the sender put on the line before the reset has arrived (step 3
 * above, after that slot's receptions and drains): if the peer has delivered
 * it, nothing more happens; if the peer holds it (an open reassembly of it or
 * its header in a VC buffer, DirectLinkEndpointState::HoldsMessage) it stays
 * pending and is delivered later (intact, truncated or malformed; at the
 * latest by the peer's next reset); otherwise its header can never reach the
 * peer and it is lost (LostMessage::slot = r). The decision is the receiving end's (only it
 * knows then what it holds); the sending end learns it one line delay later, so the loss is
 * reported (loss callback, MESSAGE_LOST, TruthCounters::lost, GetPending()) at the end of
 * slot r + 2L. Every fact of one end that the other end's ground truth uses reaches it so,
 * L slots late (see Split halves). The decision
 * does not wait for the sender to be Normal again: a sender can re-enter
 * Normal on Init-Acks the peer sent before it saw the reset, while micro-packets
 * of the old incarnation are still on the line and can still be accepted (so
 * counting them lost then could count one message both lost and delivered).
 *
 * **False acks (LossReason::FALSE_ACK).** Such a re-entry pairs one incarnation
 * of the peer with two of this side: the peer's FrameExpected counts micro-packets
 * of the old incarnation, so its acks can free entries of the new one that it
 * rejected. From ground truth (FlitTag::serial; the slot at whose end the peer
 * accepted each entry) the engine checks every entry an ack frees
 * (DirectLinkEndpointState::SetAckCallback): an entry the peer had not accepted
 * before it sent that ack (accepted at the end of slot a, the ack arriving at the
 * end of slot t, genuine iff a + L + 1 <= t) is a false ack
 * (TruthCounters::falseAcks). The sender never resends it, so a message with a
 * falsely acked micro-packet is decided like an abandoned one, at the end of slot
 * t + L (a copy sent before t may still be on the line and be accepted; reported at t + 2L):
 * lost
 * with reason FALSE_ACK unless the peer has delivered it or will deliver it (its
 * reassembly is open on it or its header waits in a VC buffer,
 * DirectLinkEndpointState::HoldsMessage: then the delivery, truncated or
 * malformed as it may be, counts it). Micro-packets of it that the peer accepts
 * later without its header are orphans and deliver nothing, so the message is
 * counted exactly once. A falsely acked Credit micro-packet loses credits, not
 * a message (counted in falseAcks only).
 *
 * **Stale pairings.** The same re-entry leaves the peer, which did not reset, with state
 * of the sender's old incarnation: its FrameExpected, micro-packets in its VC buffers,
 * an open reassembly and credits owed for them, while the new incarnation restarts at
 * SndNo 0 with every VC's credit at VcBufferSize. From ground truth
 * (FlitTag::incarnation) the engine notes when one Normal of the receiver accepts
 * micro-packets of two incarnations of the sender, or one Normal of the sender accepts
 * micro-packets (credits returned, acks) of two incarnations of the receiver or of one
 * that is not the receiver's current incarnation (after a correct handshake a Normal side
 * accepts only the peer's current incarnation: the peer's older micro-packets reach it
 * while it is still Initial); a VC overflow or an intact-looking delivery with wrong
 * content at that receiver is then the hazard's (IsStalePairing();
 * TruthCounters::staleVcOverflows, TruthCounters::staleContentMismatches; the same counts
 * stay in vcOverflows and contentMismatches). The receiver reads the sender's acceptance
 * record as of the end of slot s - L (what the sender accepted since cannot have caused
 * what arrives at s).
 *
 * **Held open.** A message that the peer holds (an open reassembly of it, or its header
 * in a VC buffer) after its sender abandoned it, freed part of it on false acks, or saw
 * a body micro-packet of it dropped on a full VC buffer, is delivered by the peer later,
 * truncated or malformed, at the peer's next reset at the latest. After a correct
 * handshake that reset comes before its sender is Normal again (a side re-enters Normal
 * only on Init-Acks answering its own Inits, which reset a Normal peer), and without a
 * stale pairing nothing is freed unaccepted and no VC buffer overflows. After a stale
 * handshake (guard off) the peer may never reset while the sender is Normal and has
 * nothing of the message left to send: nothing closes it then but the next header on its
 * VC from the sender or a later reset of the peer, so without further traffic it stays
 * pending for good. Such messages are watched (from the abandoned one's decision, or
 * from the body drop) and one is counted once (TruthCounters::heldOpen, event
 * MESSAGE_HELD_OPEN): the peer finds it at the end of the first slot s in which it holds it
 * but not its tail (a tail waiting in the peer's VC buffer delivers it when drained) and its
 * sender, as of the end of slot s - L, was Normal and held nothing of it any more
 * (OfferedMessage::finishedSlot; so no Init of the sender's Initial and nothing of the
 * message is still on the line); the sender reports it at s + L (NextLossDecision() includes
 * those slots, so the fast engine stops there).
 * It stays pending (not lost: the peer may still deliver it) and its later delivery, if
 * any, counts it as usual.
 *
 * **VC overflows (LossReason::VC_OVERFLOW).** A Data micro-packet that the receiver
 * accepts in sequence while its VC buffer is full is dropped
 * (DirectLinkEndpointState::Counters::vcOverflows): the sender's credits exceeded the free
 * space (after a stale pairing, credits restored to VcBufferSize while the peer's buffer
 * still holds micro-packets of the old incarnation, or after an undetected error). The ack
 * of the dropped micro-packet is genuine, so the sender frees it and never resends it.
 * A dropped body micro-packet leaves its message to be delivered malformed or truncated
 * (counted by that delivery); a dropped header means the message can never be delivered.
 * Such a message is decided like a falsely acked one, at the end of slot t + L for an ack
 * freeing the header at the end of slot t (or at r + L if its sender's reset at r
 * abandons it first): lost with reason VC_OVERFLOW (whatever other reason applies too)
 * unless the peer has delivered it or holds it (a copy of the header accepted meanwhile).
 *
 * Undetected errors (a block whose bits were changed and Decode() accepted) are
 * counted at the receiver, as are delivered contents that differ from what was
 * offered.
 *
 * **Callbacks.** Deliveries and losses are reported as they happen inside the
 * slot (in the order above: losses after the slot's deliveries). The
 * DirectLinkEvent%s of slot s are collected
 * during the slot and reported at its end (after its deliveries and losses),
 * all with DirectLinkEvent::slot = s, in this **canonical order**: side A's
 * before side B's; within a side by DirectLinkEventType (the enum's order:
 * STATE_CHANGE, SHUTDOWN, TIMEOUT, RETRANSMISSION, NAK_SENT, CRC_ERROR,
 * SEQUENCE_REJECT, UNDETECTED_ERROR, MESSAGE_TRUNCATED, MESSAGE_LOST, TX_BEGIN,
 * TX_END, MESSAGE_HELD_OPEN, MESSAGE_DELIVERED); events of the same side and type in the order they happened. Each
 * event:
 * - STATE_CHANGE: the side's state changed in slot s (value = new LinkState,
 *   value2 = old). A Shutdown gives NORMAL/INITIAL -> SHUTDOWN then
 *   SHUTDOWN -> INITIAL; a received Init in Normal gives NORMAL -> INITIAL;
 *   entering Normal at the end of s gives INITIAL -> NORMAL.
 * - SHUTDOWN: value = ResetReason (RETRANS_LIMIT, CREDIT_TIMEOUT,
 *   INITIAL_TIMEOUT; PEER_INIT is no Shutdown).
 * - TIMEOUT: AckTime expired at the end of s; value = AskExpected then.
 * - RETRANSMISSION: the side resent a retry-buffer entry in s; value = its SndNo.
 * - NAK_SENT: the side sent a NAK in s; value = its AskNo.
 * - CRC_ERROR: the block the side received at the end of s failed Decode()
 *   (any status but OK); value = DecodeStatus.
 * - SEQUENCE_REJECT: a correct Data/Credit received with SndNo != FrameExpected;
 *   value = its SndNo, value2 = FrameExpected.
 * - UNDETECTED_ERROR: the side received a block with flipped bits that Decode()
 *   accepted; value = its decoded PktType.
 * - MESSAGE_TRUNCATED: the side (receiver) delivered a message truncated;
 *   messageId, vc, value = DirectLinkEndpointState::TruncationReason.
 * - MESSAGE_LOST: a message of the side (sender) was counted lost in s (s = the
 *   slot it was abandoned, or falsely acked, + 2L: decided L slots after it, reported
 *   L slots later); messageId, vc, value = LossReason.
 * - TX_BEGIN / TX_END: the side sent the header / tail micro-packet of a message
 *   for the first time in s (a one-micro-packet message gives both); messageId, vc.
 * - MESSAGE_HELD_OPEN: a message of the side (sender) was counted held open by the
 *   peer in s (found by the peer at s - L, see Held open); messageId, vc.
 * - MESSAGE_DELIVERED: the peer delivered a message of the side (sender) for the first
 *   time (intact, truncated or malformed) at s - L: the sender's end learns it one line
 *   delay later (a device then forgets the message); messageId, vc.
 *
 * **Split halves.** SetLocalEndpoint() makes the engine one end of a split link (for
 * distributed runs): it runs that side's endpoint and exchanges a LineRecord per slot with
 * the other half (the micro-packet's line bits before the line's errors, its ground truth,
 * and the notices of the slot: offers with their content, give-ups, finished messages, its
 * Normal stay and acceptance record, the peer's entries it accepted or dropped, its verdicts
 * on the peer's messages). The record of slot x is due at the peer's end of slot x + L; the
 * receiving half applies the incoming direction's errors (the error process given for the
 * peer's sending direction) on arrival and decodes the bits. Each fact crosses exactly as
 * the two-sided engine uses it (one line delay late), so the halves' deliveries, losses,
 * events and endpoints equal the two-sided engine's; the truth counters and pending counts
 * are split between them (a half counts the peer's corrupted micro-packets on arrival).
 * (The fast engine's wake-up prediction, NextEventSlot(), does read both ends' current state,
 * e.g. AckRecordsClean() and HoldsMessageTail(); it is a two-sided engine and has no split
 * mode. That prediction changes no result.)
 */
class DirectLinkReferenceEngine : public DirectLinkLinkEngine
{
  public:
    /// Side A.
    static constexpr uint32_t SIDE_A = 0;
    /// Side B.
    static constexpr uint32_t SIDE_B = 1;

    /// A delivered (or truncated) message.
    using DeliveredMessage = DirectLinkDeliveredMessage;
    /// A message counted as lost.
    using LostMessage = DirectLinkLostMessage;

    /// The state of one side after a slot (for exact tests).
    struct SlotTrace
    {
        uint64_t slot{0};                           //!< the slot
        uint32_t side{0};                           //!< the side
        DirectLinkEndpointState::LinkState state{}; //!< state at the end of the slot
        DirectLinkFlit::PktType txType{};           //!< type sent in the slot
        uint32_t txSndNo{0};                        //!< its SndNo
        uint32_t txAskNo{0};                        //!< its AskNo
        uint32_t txCrdt{0};                         //!< its Crdt
        bool txRetransmission{false};               //!< a resend
        bool txNak{false};                          //!< a NAK
        bool txCorrupted{false};                    //!< bits flipped on the line
        bool rxPresent{false};                      //!< something arrived at the end of the slot
        DirectLinkFlit::DecodeStatus rxStatus{};    //!< its decode status
        DirectLinkFlit::PktType rxType{};           //!< its decoded type
        uint32_t askExpected{0};                    //!< AskExpected after the slot
        uint32_t outstanding{0};                    //!< retry-buffer entries after the slot
        uint32_t frameExpected{0};                  //!< FrameExpected after the slot
        std::array<uint32_t, DirectLinkConfig::NUM_VCS> credit{};      //!< credits
        std::array<uint32_t, DirectLinkConfig::NUM_VCS> vcOccupancy{}; //!< VC buffer use
    };

    /// Engine-level counters of one side (ground truth the protocol cannot see).
    struct TruthCounters
    {
        uint64_t offered{0};             //!< messages offered by this side
        uint64_t corruptedSent{0};       //!< blocks this side sent that the line corrupted
        uint64_t undetectedErrors{0};    //!< corrupted blocks this side received and accepted
        uint64_t contentMismatches{0};   //!< intact deliveries whose content differs
        uint64_t duplicateDeliveries{0}; //!< messages delivered twice
        uint64_t outOfOrder{0};          //!< deliveries out of offer order on a VC
        uint64_t lost{0};                //!< messages of this side counted lost
        std::array<uint64_t, DirectLinkEndpointState::NUM_LOSS_REASONS> lostByReason{}; //!< lost
        /// retry-buffer entries of this side freed by an ack of the peer that had not
        /// accepted them when it sent the ack (see False acks)
        uint64_t falseAcks{0};
        /// VC overflows of this receiver (DirectLinkEndpointState::Counters::vcOverflows)
        /// after a stale pairing: its current Normal had accepted micro-packets of two
        /// incarnations of the peer (see Stale pairings)
        uint64_t staleVcOverflows{0};
        /// contentMismatches of this receiver after a stale pairing (see Stale pairings)
        uint64_t staleContentMismatches{0};
        /// messages of this side held open by the peer (see Held open; event
        /// MESSAGE_HELD_OPEN): abandoned, freed unaccepted or with a body micro-packet dropped
        /// on a full VC buffer, held by the peer while this side is Normal with nothing of
        /// them left to send (only goes up: such a message may still be delivered later)
        uint64_t heldOpen{0};
    };

    /// Delivery callback.
    using DeliveryCallback = DirectLinkLinkEngine::DeliveryCallback;
    /// Loss callback.
    using LossCallback = DirectLinkLinkEngine::LossCallback;
    /// Event callback.
    using EventCallback = DirectLinkLinkEngine::EventCallback;
    /// Per-slot callback (called for A, then B).
    typedef std::function<void(const SlotTrace&)> SlotCallback;

    /**
     * \brief Build the engine.
     * \param config the configuration (validated; std::invalid_argument otherwise).
     * \param aToB the error process of direction A -> B (null = error free).
     * \param bToA the error process of direction B -> A (null = error free).
     */
    DirectLinkReferenceEngine(const DirectLinkConfig& config, Ptr<BitErrorProcess> aToB,
                              Ptr<BitErrorProcess> bToA);

    /**
     * \brief Offer a message to a side's NI; it is segmented and queued on its VC.
     * \param side 0 (A) or 1 (B) (std::out_of_range naming "side").
     * \param messageId unique per side (std::invalid_argument naming "messageId").
     * \param dstCpu destination CPU, 0..255.
     * \param srcCpu source CPU, 0..255.
     * \param msgClass message class, 0..15.
     * \param vc virtual channel, 0..3 (std::invalid_argument naming "vc").
     * \param bytes the content, at most MaxMessageBytes (std::invalid_argument naming it).
     * \param flags NetErr / NcErr on the tail micro-packet and the routing word's length
     *        (DirectLinkMessageFlags::Check; std::invalid_argument naming "announcedLength").
     */
    void OfferMessage(uint32_t side, uint64_t messageId, uint32_t dstCpu, uint32_t srcCpu,
                      uint32_t msgClass, uint32_t vc, const std::vector<uint8_t>& bytes,
                      const DirectLinkMessageFlags& flags = DirectLinkMessageFlags()) override;

    /// \brief Run one slot (see the class description for the order).
    virtual void Step();

    /**
     * \brief Run slots until GetSlot() == \p slot.
     * \param slot the first slot not to run.
     */
    virtual void RunUntil(uint64_t slot);

    /**
     * \brief Run every slot before \p slot (same as RunUntil()).
     * \param slot the first slot not to run.
     */
    void AdvanceTo(uint64_t slot) override;

    /// \return the next slot Step() will run.
    uint64_t GetSlot() const override;

    /**
     * \brief The reference makes no prediction: a callback may fire in any slot.
     * \return GetSlot().
     */
    uint64_t NextEventSlot() override;

    /**
     * \param side 0 or 1.
     * \return the side's protocol state.
     */
    const DirectLinkEndpointState& GetEndpoint(uint32_t side) const override;

    /**
     * \brief Change a side's NI drain interval of one VC (0 stops draining).
     * \param side 0 or 1.
     * \param vc 0..3.
     * \param interval 0..65535.
     */
    void SetDrainInterval(uint32_t side, uint32_t vc, uint32_t interval) override;

    /**
     * \param side 0 or 1.
     * \return the side's engine-level counters.
     */
    const TruthCounters& GetTruth(uint32_t side) const;

    /// \return every delivery so far, in order (only those made while the history is
    ///         recorded, see SetRecordHistory()).
    const std::vector<DeliveredMessage>& GetDelivered() const;
    /// \return every message counted lost so far, in order (only those counted while the
    ///         history is recorded, see SetRecordHistory()).
    const std::vector<LostMessage>& GetLost() const;

    /**
     * \brief Choose whether GetDelivered() / GetLost() keep every delivery and loss.
     *
     * On by default (exact tests read the history). A long run that consumes deliveries
     * and losses through the callbacks (DirectLinkChannel does) turns it off, so that the
     * engine's memory is bounded by what is in flight. Counters, callbacks, events and
     * ground-truth checks are the same either way.
     * \param record true to record the history.
     */
    void SetRecordHistory(bool record);

    /**
     * \brief Message records the engine holds: offered messages it still remembers (not
     *        yet done, or done but possibly still referenced by a micro-packet, see
     *        RetentionWindow()), recorded deliveries and losses, and the ranges of retired
     *        message ids (kept to reject reused ids and to classify late duplicates).
     *
     * With SetRecordHistory(false) and increasing message ids this stays bounded by
     * what is in flight plus 2 * RetentionWindow(), however many messages are delivered.
     * \return the number of records.
     */
    uint64_t GetRetainedMessages() const;

    /**
     * \brief How many done (delivered, truncated or lost) messages of a sending side keep
     *        their offer record, most recently done first.
     *
     * A micro-packet of a done message can only still be received while it is in the
     * sender's retry buffer, on the line or in the receiver's VC buffers and reassembly,
     * so the window is RetryBufferSize + OneWayDelay + 1 + the VC buffer sizes + the
     * number of VCs, plus a margin of 64. Older done records are erased; a delivery of
     * an erased message (a duplicate) still counts in TruthCounters::duplicateDeliveries
     * and TruthCounters::outOfOrder, with contentOk false.
     * \return the window.
     */
    uint64_t RetentionWindow() const;

    /**
     * \param side the sending side.
     * \return messages of that side neither delivered, truncated nor lost yet.
     */
    uint64_t GetPending(uint32_t side) const override;

    /// \param cb the delivery callback.
    void SetDeliveryCallback(DeliveryCallback cb) override;
    /// \param cb the loss callback.
    void SetLossCallback(LossCallback cb) override;
    /// \param cb the event callback (canonical order, see the class description).
    void SetEventCallback(EventCallback cb) override;
    /// \param cb the per-slot callback.
    void SetSlotCallback(SlotCallback cb);

    /// What a LineNotice tells the other half of a split link (see Split halves).
    enum class NoticeKind : uint8_t
    {
        OFFER = 0,    //!< the sender offered a message (content and offer order)
        UNDECIDE = 1, //!< the sender gave a message up (abandoned, or freed without acceptance)
        FINISHED = 2, //!< the sender holds nothing of a message any more
        STATUS = 3,   //!< the side's Normal stay or acceptance record changed
        ACCEPTED = 4, //!< the side accepted a retry-buffer entry of the peer
        DROPPED = 5,  //!< the side accepted and dropped a header entry of the peer (VC full)
        VERDICT = 6,  //!< the side's verdict on a message of the peer (lost, or held open)
    };

    /// One item of ground truth that a split half tells the other with a line record.
    struct LineNotice
    {
        NoticeKind kind{NoticeKind::OFFER}; //!< what it tells
        /// OFFER, UNDECIDE, FINISHED, VERDICT: the message id; ACCEPTED, DROPPED: the entry's
        /// serial (FlitTag::serial)
        uint64_t id{0};
        /// OFFER: its offer index; STATUS: normalSince; DROPPED: the entry's incarnation;
        /// VERDICT: LostMessage::slot
        uint64_t value{0};
        uint64_t value2{0}; //!< STATUS: AcceptanceStatus::incarnation
        /// UNDECIDE, VERDICT: the LossReason; STATUS: AcceptanceStatus::mixed; VERDICT: + 8
        /// when held open, + 16 when delivered, rather than lost
        uint32_t reason{0};
        uint32_t vc{0};                    //!< OFFER, VERDICT: the VC
        uint32_t flits{0};                 //!< OFFER: micro-packets
        DirectLinkFlit::RoutingInfo route; //!< OFFER: routing word
        std::vector<uint8_t> bytes;        //!< OFFER: content
    };

    /**
     * What one half of a split link puts on the line in a slot (see Split halves): the
     * micro-packet's 192 line bits before the line's errors, its ground truth and the
     * half's notices of the slot. The record of slot x is due at the peer's end of slot
     * x + L (GetLineRecordDueSlot()).
     */
    struct LineRecord
    {
        uint32_t sender{0};                   //!< the sending side
        uint64_t slot{0};                     //!< the slot it was sent in
        BitBlock bits;                        //!< the 192 line bits, before the line's errors
        DirectLinkEndpointState::FlitTag tag; //!< ground truth of the micro-packet
        std::vector<LineNotice> notices;      //!< the sender half's notices of the slot
    };

    /// Receives each LineRecord of the local side (split mode).
    typedef std::function<void(const LineRecord&)> LineOutCallback;

    /**
     * \brief Run one end of the link only (split mode; before the first Step and offer).
     *
     * This half then runs side \p side's endpoint, applies the errors of the incoming
     * direction (the process given for the peer's sending direction) on arrival, and exchanges
     * LineRecord%s with the other half (SetLineOutCallback(), ReceiveLineRecord()). Its
     * deliveries, losses, events and endpoint are exactly those of \p side in the two-sided
     * engine; GetTruth() and GetPending() are this half's share (the two halves' values add up
     * to the two-sided engine's, GetPending() modulo 2^64). Needs OneWayDelaySlots >= 1.
     * \param side 0 or 1.
     */
    void SetLocalEndpoint(uint32_t side);
    /// \return true if this engine type can run split (the reference engine; not the fast one).
    virtual bool SupportsSplit() const;
    /// \return true in split mode.
    bool IsSplit() const;
    /// \return the local side (split mode).
    uint32_t GetLocalEndpoint() const;
    /// \param cb receives the local side's record of every slot, at the end of the slot.
    void SetLineOutCallback(LineOutCallback cb);
    /**
     * \brief Hand over the peer's record of slot x (split mode), in slot order, before the
     *        local end of slot x + L runs (a record late, out of order or from the wrong side
     *        is a std::runtime_error; one missing when its slot runs is one from Step()).
     * \param r the record.
     */
    void ReceiveLineRecord(const LineRecord& r);
    /**
     * \param slot the slot a record was sent in.
     * \return the slot at whose end the peer needs it (slot + OneWayDelaySlots).
     */
    uint64_t GetLineRecordDueSlot(uint64_t slot) const;
    /**
     * \brief The wire format of a record (little endian, versioned).
     * \param r the record.
     * \return its bytes.
     */
    std::vector<uint8_t> EncodeLineRecord(const LineRecord& r) const;
    /**
     * \brief Read a record written by EncodeLineRecord() (std::invalid_argument naming the
     *        field if malformed).
     * \param data the bytes. \param size their number.
     * \return the record.
     */
    LineRecord DecodeLineRecord(const uint8_t* data, std::size_t size) const;

    /// \return the configuration.
    const DirectLinkConfig& GetConfig() const override;

  protected:
    /// A block on the line.
    struct InFlight
    {
        uint64_t arrival{0};                  //!< slot at whose end it arrives
        BitBlock bits;                        //!< the line bits (errors applied)
        DirectLinkEndpointState::FlitTag tag; //!< ground truth
        bool corrupted{false};                //!< bits were flipped
    };

    /// Fate of an offered message.
    enum class Fate : uint8_t
    {
        PENDING,   //!< queued or in flight
        ABANDONED, //!< given up by a reset of its sender, fate not decided yet
        DONE,      //!< delivered, truncated or lost
    };

    /// What the engine remembers of an offered message.
    struct OfferedMessage
    {
        uint64_t offerSlot{0};                        //!< offer slot
        uint64_t offerIndex{0};                       //!< 1-based offer order of the side
        uint32_t vc{0};                               //!< VC
        DirectLinkFlit::RoutingInfo route;            //!< routing word
        std::vector<uint8_t> bytes;                   //!< content
        Fate fate{Fate::PENDING};                     //!< fate
        uint64_t abandonSlot{0};                      //!< slot abandoned (or falsely acked)
        DirectLinkEndpointState::LossReason reason{}; //!< reason abandoned
        /// the peer accepted its header micro-packet and dropped it on a full VC buffer (its
        /// loss, if it is lost, is then LossReason::VC_OVERFLOW whatever else happened)
        bool headerDropped{false};
        /// counted held open (TruthCounters::heldOpen; see Held open)
        bool heldOpen{false};
        uint32_t flits{0}; //!< its number of micro-packets
        /// the slot at whose end its sender stopped holding any of it (its tail entry freed
        /// by an ack, or abandoned by a reset; NEVER before)
        uint64_t finishedSlot{NEVER};
    };

    /// What kind of verdict a Report carries.
    enum class ReportKind : uint8_t
    {
        LOST,      //!< the message is lost (loss callback, MESSAGE_LOST)
        HELD_OPEN, //!< the message is held open by the peer (MESSAGE_HELD_OPEN)
        DELIVERED, //!< the peer delivered the message (MESSAGE_DELIVERED)
    };

    /**
     * A verdict on a message of a sending side, reached at the end of a slot from the
     * receiving side's state (see Accounting, Held open) and reported at the sender's side
     * L slots later (the sender's end of the link learns it one line delay later).
     */
    struct Report
    {
        uint64_t due{0};                              //!< slot at whose end it is reported
        ReportKind kind{ReportKind::LOST};            //!< the verdict
        uint64_t id{0};                               //!< the message
        uint32_t vc{0};                               //!< its VC
        uint64_t abandonSlot{0};                      //!< LostMessage::slot
        DirectLinkEndpointState::LossReason reason{}; //!< LostMessage::reason
    };

    /// A side's acceptance record of the peer's micro-packets at the end of a slot (the
    /// AckTruth::accMixed / accIncarnation of the peer's direction), for the stale-pairing
    /// check, which reads it one line delay late.
    struct AcceptanceStatus
    {
        uint64_t slot{0};              //!< the status holds from the end of this slot on
        bool mixed{false};             //!< AckTruth::accMixed
        uint64_t incarnation{NEVER};   //!< AckTruth::accIncarnation
    };

    /**
     * Ground truth of one direction (the micro-packets one side sends and the peer
     * accepts) for the false-ack accounting and the fast engine's prediction. "The
     * sender's Normal" is its current stay in Normal, "the peer's Normal" the peer's.
     */
    struct AckTruth
    {
        /// serial -> slot at whose end the peer accepted it (entries up to the newest freed
        /// one are erased as acks free them)
        std::map<uint64_t, uint64_t> accepted;
        uint64_t normalSince{NEVER}; //!< first slot of the sender's Normal (NEVER if not Normal)
        uint64_t firstSerial{0};     //!< the sender's next serial when its Normal began
        bool freed{false};           //!< an ack freed an entry in the sender's Normal
        uint64_t freedUpTo{0};       //!< the newest serial freed so (if freed)
        /// the newest serial any ack freed (NEVER if none; serials only grow)
        uint64_t everFreedUpTo{NEVER};
        bool falseAck{false};        //!< one of those frees was a false ack
        bool mixed{false};           //!< one came from an ack sent before the peer's Normal began
        uint64_t accFirst{NEVER};    //!< first serial the peer accepted in the peer's Normal
        uint64_t accLast{NEVER};     //!< last one
        bool accBroken{false};       //!< the peer's acceptances there were not consecutive
        /// serials of the sender's header micro-packets that the peer accepted and dropped on
        /// a full VC buffer, still in the sender's retry buffer (erased as acks free them;
        /// cleared at the sender's reset, which abandons them)
        std::set<uint64_t> dropped;
        /// the sender's incarnation (FlitTag::incarnation) of the last micro-packet the peer
        /// accepted in the peer's Normal (NEVER if none)
        uint64_t accIncarnation{NEVER};
        /// the peer's Normal accepted micro-packets of two incarnations of the sender (a stale
        /// pairing, see Stale pairings)
        bool accMixed{false};
    };

    /// \brief A side's NI delivered. \param side receiving side. \param d the delivery.
    void OnDelivery(uint32_t side, const DirectLinkEndpointState::Delivery& d);
    /// \brief Erase done records of a side beyond the retention window.
    /// \param side the sending side.
    void TrimDone(uint32_t side);
    /// \param side the sending side. \param id a message id.
    /// \return true if the id was offered and its record erased.
    bool IsRetired(uint32_t side, uint64_t id) const;
    /**
     * \brief A side accepted a Data micro-packet of the peer and dropped it because its VC
     *        buffer was full (see VC overflows): a header marks its message
     *        (OfferedMessage::headerDropped) and its entry (AckTruth::dropped).
     * \param side the receiving side.
     * \param tag the micro-packet's ground truth.
     * \param slot the slot at whose end it arrived.
     */
    void OnOverflow(uint32_t side, const DirectLinkEndpointState::FlitTag& tag, uint64_t slot);
    /// \brief A side abandoned a message. \param side sender. \param id message.
    /// \param r reason. \param slot slot.
    void OnAbandon(uint32_t side, uint64_t id, DirectLinkEndpointState::ResetReason r,
                   uint64_t slot);
    /// \brief An ack freed a retry-buffer entry of a side (false-ack check, see Accounting).
    /// \param side the sender. \param tag the entry's ground truth.
    /// \param slot the slot at whose end the ack arrived.
    void OnAck(uint32_t side, const DirectLinkEndpointState::FlitTag& tag, uint64_t slot);
    /// \brief Put a message of a side on the undecided list (decided at the end of slot + L).
    /// \param side sender. \param id message. \param r reason. \param slot slot.
    void Undecide(uint32_t side, uint64_t id, DirectLinkEndpointState::LossReason r, uint64_t slot);
    /**
     * \brief Whether the ground-truth records of direction \p side (its sender \p side, acks
     *        from the peer) rule out a false ack while both sides stay Normal, provided no
     *        micro-packet sent before its sender's Normal began is still on the line (the
     *        caller checks the line).
     *
     * True iff both sides are Normal, the sender's Normal has had no false ack and no free by
     * an ack sent before the peer's Normal began, and the peer's Normal has accepted either
     * nothing (and the sender freed nothing) or a consecutive run of the sender's serials
     * starting at the first of the sender's Normal and covering everything freed. Then the
     * two Normals started together and Go-Back-N's window (at most 30 of 31 sequence numbers)
     * makes every ack genuine until a state change or a corrupted micro-packet, both of which
     * are events.
     * \param side the sending side.
     * \return true if no false ack can occur.
     */
    bool AckRecordsClean(uint32_t side) const;
    /**
     * \brief Decide the abandoned messages due at the end of slot \p s (abandoned at s - L):
     *        lost unless delivered or held by the peer (see Accounting). Called by Step()
     *        after both sides' end of slot.
     * \param s the slot.
     */
    void ResolveAbandoned(uint64_t s);
    /**
     * \brief Count a watched message of a side held open by the peer (see Held open): the
     *        peer holds it (DirectLinkEndpointState::HoldsMessage) but not its tail
     *        (HoldsMessageTail) while the side has been Normal for L slots and has nothing
     *        of it left to send (SendsMessage).
     * \param side the message's sender.
     * \param id the message.
     * \param s the slot (at its end).
     * \return true while the message is still held but not yet counted (check it again at
     *         the end of the next slot).
     */
    bool CheckHeldOpen(uint32_t side, uint64_t id, uint64_t s);
    /**
     * \brief Whether the pairing of a sender with its receiver is stale (see Stale pairings):
     *        the receiver's current Normal accepted micro-packets of two incarnations of the
     *        sender, or the sender's current Normal accepted micro-packets (credits, acks) of
     *        two incarnations of the receiver or of one that is not the receiver's current.
     * \param sender the sending side.
     * \return true if stale.
     */
    bool IsStalePairing(uint32_t sender) const;
    /**
     * \brief Watch a message for Held open (once).
     * \param side its sender.
     * \param id the message.
     */
    void WatchHeldOpen(uint32_t side, uint64_t id);
    /// \return the first slot at whose end an abandoned message is decided, a verdict is
    ///         reported or a watched message can be counted held open (NEVER if none).
    uint64_t NextLossDecision() const;
    /**
     * \brief Report the verdicts due at the end of slot \p s on the messages of \p side
     *        (loss callback, MESSAGE_LOST and the lost counters; MESSAGE_HELD_OPEN and
     *        TruthCounters::heldOpen; MESSAGE_DELIVERED).
     * \param side the sending side.
     * \param s the slot.
     */
    void FireReports(uint32_t side, uint64_t s);
    /**
     * \param side a side.
     * \param x a slot.
     * \return the first slot of the side's stay in Normal as of the end of slot \p x
     *         (NEVER if it was not Normal then, or \p x is before the history kept).
     */
    uint64_t NormalSinceAt(uint32_t side, uint64_t x) const;
    /**
     * \param acceptor a side.
     * \param x a slot.
     * \return its acceptance record of the peer's micro-packets as of the end of slot \p x.
     */
    AcceptanceStatus AcceptanceAt(uint32_t acceptor, uint64_t x) const;
    /**
     * \brief Note a side's status as of the end of slot \p x in its histories (a change of
     *        its Normal stay, or of its acceptance record), dropping entries no query needs.
     * \param side the side.
     * \param x the slot.
     */
    void NoteStatus(uint32_t side, uint64_t x);
    /**
     * \brief Put a status in a side's histories (see NoteStatus()).
     * \param side the side. \param x the slot.
     * \param since normalSince. \param mixed AcceptanceStatus::mixed.
     * \param incarnation AcceptanceStatus::incarnation.
     * \return true if the status differs from the last one noted.
     */
    bool PushStatus(uint32_t side, uint64_t x, uint64_t since, bool mixed, uint64_t incarnation);
    /**
     * \brief A verdict on a message of \p side: queued for its report, or, in split mode
     *        for the peer's message, told to the peer.
     * \param side the sending side. \param r the verdict.
     */
    void PostReport(uint32_t side, const Report& r);
    /// \return true if \p side's share of the ground truth is on the other half.
    /// \param side a side.
    bool Remote(uint32_t side) const
    {
        return m_split && side != m_local;
    }
    /// \brief Step() in split mode.
    void SplitStep();
    /**
     * \brief Fill a side's slot trace from its endpoint after the slot (all but txCorrupted
     *        and the reception fields).
     * \param t the trace. \param side the side. \param s the slot. \param tx what it sent.
     */
    void FillTrace(SlotTrace& t, uint32_t side, uint64_t s,
                   const DirectLinkEndpointState::TxFlit& tx) const;
    /**
     * \brief A side holds nothing of one of its messages any more (OfferedMessage::finishedSlot;
     *        in split mode told to the peer's half).
     * \param side the sender. \param id the message. \param slot the slot.
     */
    void MarkFinished(uint32_t side, uint64_t id, uint64_t slot);
    /**
     * \brief Check a record's fields (std::invalid_argument naming the field).
     * \param r the record. \param where the caller, for the message.
     */
    void CheckRecord(const LineRecord& r, const char* where) const;
    /// \brief Apply a notice of the peer's record of slot \p x. \param n the notice.
    /// \param x the record's slot.
    void ApplyNotice(const LineNotice& n, uint64_t x);
    /// \brief Erase a retired message record, remembering its id. \param side the sender.
    /// \param id the message.
    void Retire(uint32_t side, uint64_t id);
    /// \brief A side changed state. \param side the side. \param s new state. \param slot slot.
    /// \param r why the link left Normal (meaningful for resets).
    void OnState(uint32_t side, DirectLinkEndpointState::LinkState s, uint64_t slot,
                 DirectLinkEndpointState::ResetReason r);
    /// \brief Record an event of the current slot.
    /// \param type the type. \param side the side. \param value value.
    /// \param value2 second value. \param id message. \param vc VC.
    void AddEvent(DirectLinkEventType type, uint32_t side, int64_t value, int64_t value2 = 0,
                  uint64_t id = 0, uint32_t vc = 0);
    /// \brief Report the events of the current slot in canonical order.
    void FlushEvents();
    /// \brief Record the send events of a micro-packet.
    /// \param side the sender. \param t what it sent.
    void TxEvents(uint32_t side, const DirectLinkEndpointState::TxFlit& t);
    /// \brief Apply the direction's errors listed for slot \p s (pops them).
    /// \param side the sender. \param s the slot. \param bits the line bits to flip (null:
    /// do not flip). \param corrupted set to true if bits were listed.
    void ApplyErrors(uint32_t side, uint64_t s, BitBlock* bits, bool& corrupted);
    /// \brief End of slot \p s of a side: reception (if \p r), drain, timers, with events.
    /// \param side the side. \param s the slot. \param r the decoded arrival or null.
    /// \param tag its ground truth. \param corrupted its bits were flipped.
    void RxAndEndOfSlot(uint32_t side, uint64_t s, const DirectLinkFlit::DecodeResult* r,
                        const DirectLinkEndpointState::FlitTag& tag, bool corrupted);

    DirectLinkConfig m_cfg;                                      //!< configuration
    std::array<DirectLinkEndpointState, 2> m_ep;                 //!< sides
    std::array<Ptr<BitErrorProcess>, 2> m_err;                   //!< error process by sending side
    std::array<std::deque<InFlight>, 2> m_line;                  //!< line by sending side
    uint64_t m_slot{0};                                          //!< next slot
    std::array<TruthCounters, 2> m_truth;                        //!< counters by side
    std::array<std::map<uint64_t, OfferedMessage>, 2> m_offered; //!< by sending side
    std::array<std::array<uint64_t, DirectLinkConfig::NUM_VCS>, 2> m_lastDelivered{}; //!< order
    std::array<uint64_t, 2> m_pending{};       //!< pending counts by sending side
    std::vector<DeliveredMessage> m_delivered; //!< deliveries
    std::vector<LostMessage> m_lost;           //!< losses
    DeliveryCallback m_deliveryCb;             //!< callback
    LossCallback m_lossCb;                     //!< callback
    SlotCallback m_slotCb;                     //!< callback
    EventCallback m_eventCb;                   //!< callback
    std::vector<DirectLinkEvent> m_events;     //!< events of the current slot
    std::array<DirectLinkEndpointState::LinkState, 2> m_lastState{}; //!< for STATE_CHANGE

    /// abandoned messages by sending side awaiting their decision: (decision slot, id),
    /// in abandon order (hence by decision slot)
    std::array<std::deque<std::pair<uint64_t, uint64_t>>, 2> m_undecided;
    /// per side: its messages watched for Held open (abandoned ones the peer held at their
    /// decision, ones with a body micro-packet dropped), not yet counted (checked again at
    /// the end of every slot run in slot mode)
    std::array<std::vector<uint64_t>, 2> m_heldByPeer;
    /// verdicts by sending side awaiting their report, in due order
    std::array<std::deque<Report>, 2> m_reports;
    /// by side: (x, normalSince as of the end of slot x), one entry per change, oldest first
    std::array<std::deque<std::pair<uint64_t, uint64_t>>, 2> m_normalHistory;
    /// by acceptor side: its acceptance record as of the end of slot x, one entry per change
    std::array<std::deque<AcceptanceStatus>, 2> m_accHistory;
    bool m_recordHistory{true};                 //!< keep m_delivered / m_lost
    std::array<std::deque<uint64_t>, 2> m_done; //!< done ids by sending side, oldest first
    std::array<AckTruth, 2> m_ackTruth;         //!< by sending side
    /// erased ids by sending side: ranges first -> last (inclusive)
    std::array<std::map<uint64_t, uint64_t>, 2> m_retired;
    bool m_split{false};                //!< split mode (SetLocalEndpoint)
    uint32_t m_local{0};                //!< the local side in split mode
    LineOutCallback m_lineOut;          //!< split mode: the local side's records
    std::deque<LineRecord> m_inbox;     //!< split mode: the peer's records not yet due
    uint64_t m_nextInSlot{0};           //!< split mode: slot of the next record expected
    std::vector<LineNotice> m_outbox;   //!< split mode: notices of the slot in progress
    std::vector<uint64_t> m_finishedOwn; //!< split mode: own messages finished this slot
};

} // namespace ns3

#endif /* DIRECT_LINK_REFERENCE_ENGINE_H */
