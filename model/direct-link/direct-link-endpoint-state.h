/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_LINK_ENDPOINT_STATE_H
#define DIRECT_LINK_ENDPOINT_STATE_H

#include "direct-link-config.h"
#include "ns3/direct-link-flit.h"

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup direct-link-protocol
 * \brief The protocol state of one side of a direct link: its sender (Go-Back-N
 *        retry buffer, credits, AckTime / RetransTime / CrdNullTime), its
 *        receiver (FrameExpected, VC buffers, NI drain and reassembly) and its
 *        link state machine (Initial / Normal / Shutdown, InitialTime).
 *
 * A side only knows what arrives over the line: its decisions use nothing but
 * its own state and the decoded micro-packets. FlitTag (ground truth: which
 * message a micro-packet belongs to) travels with the bits for the records
 * only and never influences a decision.
 *
 * Per slot s the owner calls, in this order: BuildTx(s) (the micro-packet this
 * side puts on the line in slot s, decided from the state at the start of s),
 * then Receive(s, ...) for the micro-packet that arrives at the end of slot s
 * (if any), then EndOfSlot(s) (NI drain, then timers). So everything received
 * at the end of slot s is visible to BuildTx(s + 1).
 *
 * Rules (spec/direct-link-protocol.md, with this model's decisions):
 * - **Initial** (§4.2): sends Init until a correct Init or Init-Ack has been
 *   received ("peer seen"), Init-Ack afterwards. A correct Init-Ack received
 *   while the peer has already been seen enters Normal (XmSN = RcvSN = 0,
 *   credit = VcBufferSize); the first Init-Ack received without a prior Init
 *   only marks the peer as seen (the peer saw our Init, so it waits for our
 *   Init-Ack). Everything but Init and Init-Ack is discarded. InitialTime
 *   micro-packet times in Initial without reaching Normal -> Shutdown.
 *   An Init-Ack received at the end of a slot less than 2L + 1 slots after this
 *   Initial began (DirectLinkConfig::InitAckGuardSlots()) cannot answer this
 *   Initial's Init, only an earlier one: it is counted (initAckEarly) and, with
 *   DirectLinkConfig::initAckGuard (the corrected variant, not in the document),
 *   ignored; by default (the document's rule) it counts like any other. Without
 *   the guard a side can re-enter Normal on Init-Acks that answer an Init of its
 *   previous incarnation, and the peer's acks then acknowledge micro-packets it
 *   never accepted (a false ack; the engine counts the messages concerned lost,
 *   LossReason::FALSE_ACK), or the peer, whose VC buffers still hold micro-packets
 *   of the previous incarnation while this side's credits restart at VcBufferSize,
 *   drops an accepted one on a full VC buffer (vcOverflows; a message whose header
 *   is so dropped is counted lost, LossReason::VC_OVERFLOW).
 * - **Normal**: a correct Init re-enters Initial (peer seen) with the same
 *   clean-up as Shutdown (reason PEER_INIT); an Init-Ack is ignored.
 * - **Shutdown** takes no micro-packet time in this model: the clean-up is done
 *   at the end of the slot that detected the cause and the side sends Init
 *   from the next slot. Clean-up: the NI flushes every VC buffer into
 *   reassembly (complete messages are delivered intact), every message being
 *   received is delivered truncated with NetErr = 1 (TruncationReason = the
 *   reset reason), the retry buffer is
 *   cleared, messages with micro-packets in it or partially segmented are
 *   reported abandoned (the engine later decides delivered / truncated / lost, see
 *   DirectLinkReferenceEngine),
 *   credits are restored (to 0 in Initial, VcBufferSize on entering Normal).
 * - **Go-Back-N** (§5): sequence numbers 0..30 modulo 31; the retry buffer
 *   holds every Data and Credit micro-packet from its first send until acked;
 *   AskExpected = SndNo of the oldest entry, NextFrameToSend = AskExpected +
 *   resend position. An ack a is valid iff (a - AskExpected) mod 31 < entries;
 *   it frees the entries up to a (cumulative, idempotent). Acks are taken from
 *   every correct Null, Data and Credit, even one rejected for its SndNo;
 *   Crdt and Data only from accepted ones (SndNo == FrameExpected).
 *   The AskNo sent is FrameExpected - 1 mod 31 (the last accepted); a
 *   retransmitted entry carries the current AskNo, everything else unchanged.
 * - **Send priority in Normal**: NAK (if pending) > retransmission (resend
 *   position < entries) > new Data (if the retry buffer has room; VCs served
 *   round-robin among those with a queued micro-packet and credit > 0) > Credit
 *   (room and credits owed) > Null.
 * - **AckTime**: an entry sent or resent in slot n expires at the end of slot
 *   n + AckTime if not acked by then (acks received at the end of that slot
 *   count); only the oldest entry's timer matters (timers are in send order).
 *   Expiry moves NextFrameToSend back to AskExpected; resending starts in the
 *   next slot.
 * - **RetransTime**: each entry is loaded with RetransLimit at its first send
 *   and decremented at each resend; a go-back (timeout or NAK) when the oldest
 *   entry's counter is 0 is a Shutdown (RETRANS_LIMIT). Resend counts are
 *   non-increasing along the buffer, so the oldest entry's is the one to check.
 * - **Credits**: one credit per VC buffer slot of the peer; a new Data on VC v
 *   needs credit[v] > 0 and consumes one (retransmissions consume none). A
 *   credit is owed when the NI drains a micro-packet from a VC buffer; each
 *   new Data or Credit carries at most one owed credit per VC (Crdt bit v).
 * - **CrdNullTime**: when the send in slot n makes credit[v] 0 and no credit of
 *   VC v arrives by the end of slot n + CrdNullTime -> Shutdown (CREDIT_TIMEOUT).
 * - **NAK what-if** (NakEnabled): the first correct Data/Credit rejected for
 *   its SndNo after an accepted one makes the receiver send, in its next slot
 *   (highest priority), a NAK: a Null micro-packet (AskNo = FrameExpected - 1)
 *   whose Data byte 0 is 0x01 (Null's Data is written as zero and not checked
 *   by the document, so the NAK needs no new type and passes every check).
 *   One NAK per out-of-sequence episode (re-armed by the next acceptance). A
 *   sender receiving a NAK handles its ack, then goes back to AskExpected as on
 *   a timeout (RetransTime applies). A lost NAK is covered by AckTime.
 * - **Truncated upstream**: a message whose tail micro-packet carries NetErr
 *   and that has fewer micro-packets than its routing word's length needs
 *   (DirectLinkMessageFlags: a router cut it) is delivered truncated, NetErr
 *   set, TruncationReason UPSTREAM, with the bytes that arrived.
 * - **NI drain**: in every slot s with s % VcDrainInterval[v] == 0 (interval
 *   > 0) the NI takes one micro-packet from the head of VC v's buffer, owes one
 *   credit of VC v and feeds reassembly; a Tail completes a message, delivered
 *   at slot s.
 */
class DirectLinkEndpointState
{
  public:
    /// Slot value meaning "never".
    static constexpr uint64_t NEVER = std::numeric_limits<uint64_t>::max();
    /// Sequence-number modulus.
    static constexpr uint32_t SEQ_MODULUS = 31;

    /// Link states of §4.2.
    enum class LinkState : uint8_t
    {
        INITIAL = 0,  //!< handshake (Init / Init-Ack)
        NORMAL = 1,   //!< normal operation
        SHUTDOWN = 2, //!< serious error (transient: clean-up, then Initial)
    };

    /// Why a side reset (Shutdown reasons plus re-entry into Initial on a received Init).
    enum class ResetReason : uint8_t
    {
        RETRANS_LIMIT = 0,   //!< RetransTime exhausted (Shutdown)
        CREDIT_TIMEOUT = 1,  //!< CrdNullTime expired (Shutdown)
        INITIAL_TIMEOUT = 2, //!< InitialTime expired (Shutdown)
        PEER_INIT = 3,       //!< correct Init received in Normal (re-enter Initial)
    };

    /// Number of ResetReason values.
    static constexpr uint32_t NUM_RESET_REASONS = 4;

    /// Why a message was delivered truncated (NetErr set).
    enum class TruncationReason : uint8_t
    {
        RETRANS_LIMIT = 0,   //!< this receiver's Shutdown on RetransTime cut it
        CREDIT_TIMEOUT = 1,  //!< this receiver's Shutdown on CrdNullTime cut it
        INITIAL_TIMEOUT = 2, //!< this receiver's Shutdown on InitialTime cut it (not in practice)
        PEER_INIT = 3,       //!< this receiver re-entered Initial on the peer's Init (peer reset)
        UPSTREAM = 4,        //!< it arrived short with a NetErr tail: cut by a Shutdown upstream
        /// a header arrived while it was open: after an undetected error, or on a
        /// message held open after a stale handshake (doc/direct-link.rst, known issue)
        NEW_HEADER = 5,
    };

    /// Number of TruncationReason values.
    static constexpr uint32_t NUM_TRUNCATION_REASONS = 6;

    /// Why a message was counted lost (the four ResetReason values first, same numbers).
    enum class LossReason : uint8_t
    {
        RETRANS_LIMIT = 0,   //!< abandoned by its sender's Shutdown on RetransTime
        CREDIT_TIMEOUT = 1,  //!< abandoned by its sender's Shutdown on CrdNullTime
        INITIAL_TIMEOUT = 2, //!< abandoned by its sender's Shutdown on InitialTime
        PEER_INIT = 3,       //!< abandoned by its sender's re-entry into Initial on an Init
        /// acknowledged, not received: an ack freed one of its micro-packets from the retry
        /// buffer although the peer had not accepted it (the ack answered another incarnation
        /// of this side, see the Initial rule); never resent, the message never arrives whole
        FALSE_ACK = 4,
        /// accepted, not kept: the peer accepted its header micro-packet in sequence (so
        /// the ack that freed it was genuine) but dropped it because the VC buffer was full
        /// (Counters::vcOverflows), the sender's credits exceeding the free space after a
        /// stale handshake (or an undetected error); without its header the message never
        /// arrives (see DirectLinkReferenceEngine, VC overflows)
        VC_OVERFLOW = 5,
    };

    /// Number of LossReason values.
    static constexpr uint32_t NUM_LOSS_REASONS = 6;

    /// Ground truth carried with a micro-packet for the records (never used for decisions).
    struct FlitTag
    {
        uint64_t messageId{NEVER}; //!< message of a Data micro-packet, NEVER otherwise
        uint32_t flitIndex{0};     //!< index of the micro-packet within its message
        /// retry-buffer entry (Data or Credit): this side's serial number of the entry,
        /// 0, 1, 2, ... in creation order over the side's whole life; NEVER otherwise
        uint64_t serial{NEVER};
        /// retry-buffer entry: the sender's incarnation it belongs to (Counters::normalEntries
        /// when it was created: the sender's stays in Normal are numbered 1, 2, ...); NEVER
        /// otherwise
        uint64_t incarnation{NEVER};
    };

    /// What BuildTx() puts on the line.
    struct TxFlit
    {
        DirectLinkFlit::Fields fields; //!< the fields to encode
        FlitTag tag;                   //!< ground truth
        bool retransmission{false};    //!< a resend of a retry-buffer entry
        bool nak{false};               //!< the Null is a NAK
    };

    /// A message handed to the local CPU (or truncated) by the NI.
    struct Delivery
    {
        uint64_t messageId{NEVER};         //!< ground-truth id of its header micro-packet
        uint32_t vc{0};                    //!< virtual channel
        uint64_t slot{0};                  //!< slot of delivery
        DirectLinkFlit::RoutingInfo route; //!< decoded routing word
        std::vector<uint8_t> bytes;        //!< content as decoded (truncated: what arrived)
        bool netErr{false};                //!< NetErr (set on truncation or by a flit)
        bool ncErr{false};                 //!< NcErr of any of its micro-packets
        bool truncated{false};             //!< cut short by a reset (here or upstream)
        TruncationReason truncReason{};    //!< why (meaningful when truncated)
        bool malformed{false};             //!< flits inconsistent with the routing word
    };

    /// Counters of one side.
    struct Counters
    {
        std::array<uint64_t, 6> sentByType{}; //!< micro-packets sent, by PktType 0..5
        uint64_t dataNew{0};                  //!< Data sent for the first time
        uint64_t creditNew{0};                //!< Credit sent for the first time
        uint64_t retransmissions{0};          //!< resends of retry-buffer entries
        uint64_t timeouts{0};                 //!< AckTime expiries
        uint64_t naksSent{0};                 //!< NAKs sent
        uint64_t naksReceived{0};             //!< NAKs received (NakEnabled)
        uint64_t acksReceived{0};             //!< acks that freed entries
        uint64_t entriesAcked{0};             //!< retry-buffer entries freed
        uint64_t creditsSent{0};              //!< credit bits sent
        uint64_t creditsReceived{0};          //!< credit bits received
        uint64_t rxAccepted{0};               //!< Data/Credit accepted in sequence
        uint64_t rxCorrupted{0};              //!< bad Frame byte or CRC
        uint64_t rxReservedType{0};           //!< reserved PktType
        uint64_t rxInconsistent{0};           //!< fixed fields wrong
        uint64_t seqRejects{0};               //!< Data/Credit with SndNo != FrameExpected
        uint64_t rxDiscardedInInitial{0};     //!< non-handshake micro-packets in Initial
        uint64_t initAckIgnored{0};           //!< Init-Ack received in Normal
        /// Init-Acks received in Initial less than InitAckGuardSlots() after it began (they
        /// answer an earlier Init; ignored with initAckGuard, counted either way)
        uint64_t initAckEarly{0};
        std::array<uint64_t, NUM_RESET_REASONS> resets{}; //!< resets by reason
        uint64_t normalEntries{0};                        //!< entries into Normal
        uint64_t messagesDelivered{0};                    //!< intact messages delivered
        uint64_t messagesTruncated{0};                    //!< messages delivered truncated (NetErr)
        std::array<uint64_t, NUM_TRUNCATION_REASONS> truncatedByReason{}; //!< by TruncationReason
        uint64_t messagesMalformed{0}; //!< messages whose flits did not match
        uint64_t orphanFlits{0};       //!< body flits without a header
        uint64_t messagesAbandoned{0}; //!< messages given up by this sender
        /// accepted Data that found its VC full (dropped; the engine counts a message whose
        /// header is dropped so lost, LossReason::VC_OVERFLOW)
        uint64_t vcOverflows{0};
        uint64_t creditOverflows{0}; //!< credits beyond VcBufferSize received
    };

    /// Callback for deliveries.
    typedef std::function<void(const Delivery&)> DeliveryCallback;
    /// Callback for abandoned messages: message id, reason, slot.
    typedef std::function<void(uint64_t, ResetReason, uint64_t)> AbandonCallback;
    /// Callback for link-state changes: new state, slot it takes effect, reason (resets only).
    typedef std::function<void(LinkState, uint64_t, ResetReason)> StateCallback;
    /// Callback for every retry-buffer entry an ack frees (oldest first): the entry's ground
    /// truth and the slot at whose end the ack arrived (records only, see SetAckCallback()).
    typedef std::function<void(const FlitTag&, uint64_t)> AckCallback;

    /**
     * \brief Construct a side in Initial at slot 0.
     * \param config the link configuration (validated here).
     */
    explicit DirectLinkEndpointState(const DirectLinkConfig& config);

    /**
     * \brief Queue a message's micro-packets on its VC (no checks: the engine checks).
     * \param messageId ground-truth id.
     * \param flits the segmented micro-packets (DirectLinkFlit::Segment).
     */
    void QueueMessage(uint64_t messageId, const std::vector<DirectLinkFlit::Fields>& flits);

    /**
     * \brief Decide the micro-packet of slot \p slot.
     * \param slot the slot.
     * \return the micro-packet.
     */
    TxFlit BuildTx(uint64_t slot);

    /**
     * \brief Process the micro-packet that arrives at the end of \p slot.
     * \param slot the slot.
     * \param r Decode()'s result.
     * \param tag ground truth (records only).
     */
    void Receive(uint64_t slot, const DirectLinkFlit::DecodeResult& r, const FlitTag& tag);

    /**
     * \brief End of slot: NI drain, then AckTime, CrdNullTime and InitialTime.
     * \param slot the slot.
     */
    void EndOfSlot(uint64_t slot);

    /**
     * \brief Change the NI drain interval of a VC (0 stops draining).
     * \param vc the VC, 0..3.
     * \param interval slots per drained micro-packet, 0..65535.
     */
    void SetDrainInterval(uint32_t vc, uint32_t interval);

    /// \param cb the delivery callback.
    void SetDeliveryCallback(DeliveryCallback cb);
    /// \param cb the abandon callback.
    void SetAbandonCallback(AbandonCallback cb);
    /// \param cb the state callback.
    void SetStateCallback(StateCallback cb);
    /**
     * \brief Report every retry-buffer entry freed by an ack.
     *
     * Ground truth for the engine's accounting (an entry freed by an ack although the peer
     * never accepted it is a false ack, LossReason::FALSE_ACK); no decision of this side
     * depends on it. Entries cleared by a reset are reported through the abandon callback
     * instead.
     * \param cb the callback.
     */
    void SetAckCallback(AckCallback cb);

    /// \return the link state.
    LinkState GetState() const;
    /// \return AskExpected (0xF in Initial).
    uint32_t GetAskExpected() const;
    /// \return NextFrameToSend (0xF in Initial).
    uint32_t GetNextFrameToSend() const;
    /// \return the number of retry-buffer entries.
    uint32_t GetOutstanding() const;
    /// \return FrameExpected (0xF in Initial).
    uint32_t GetFrameExpected() const;
    /// \param vc the VC. \return the credits held for the peer's VC buffer.
    uint32_t GetCredit(uint32_t vc) const;
    /// \param vc the VC. \return micro-packets in this side's VC buffer.
    uint32_t GetVcOccupancy(uint32_t vc) const;
    /// \param vc the VC. \return micro-packets queued for sending on the VC.
    uint32_t GetQueuedFlits(uint32_t vc) const;
    /// \return true if the peer was seen in Initial.
    bool GetPeerSeen() const;
    /// \return the serial number (FlitTag::serial) the next retry-buffer entry will get.
    uint64_t GetNextSerial() const;

    /**
     * \brief Whether this side's receiver will deliver a message of the peer: the reassembly
     *        of a VC is open on it (its header accepted, not yet delivered), or its header
     *        micro-packet waits in a VC buffer.
     *
     * Ground truth (FlitTag) for the engine's accounting only; no protocol decision uses it.
     * A message held here is delivered later (intact, truncated or malformed), at the latest
     * by this side's next reset (which flushes the VC buffers into reassembly and truncates
     * what is open). Micro-packets of it without its header ahead (possible only after a
     * false ack or an undetected error) do not count: the NI drops them as orphans or
     * appends them to another open message, so they never deliver this one.
     * \param messageId the ground-truth id of a message of the peer.
     * \return true if held.
     */
    bool HoldsMessage(uint64_t messageId) const;
    /**
     * \brief Whether this side still has a micro-packet of one of its own messages to send
     *        or resend: queued at the NI or in the retry buffer (ground truth, for the
     *        engine's accounting only).
     * \param messageId the ground-truth id of a message of this side.
     * \return true if it has one.
     */
    bool SendsMessage(uint64_t messageId) const;
    /**
     * \brief Whether the tail micro-packet of a message of the peer waits in a VC buffer
     *        here (so draining it delivers the message, intact or malformed; ground truth).
     * \param messageId the ground-truth id of a message of the peer.
     * \return true if it does.
     */
    bool HoldsMessageTail(uint64_t messageId) const;
    /// \return the counters.
    const Counters& GetCounters() const;

    /**
     * \brief Whether this side is idle: Normal, empty retry buffer, no NAK pending, no credit
     *        owed, and for every VC nothing sendable (queue empty or credit 0) and nothing
     *        drainable (VC buffer empty or drain stopped).
     *
     * An idle side sends IdleTx() in every slot and, receiving only correct non-NAK Null
     * micro-packets, does not change state until IdleLimit() (used by the fast engine).
     * \return true if idle.
     */
    bool IsIdle() const;

    /**
     * \return the first slot at whose end an idle side's CrdNullTime fires (NEVER if none).
     */
    uint64_t IdleLimit() const;

    /**
     * \brief A lower bound on the first slot >= \p slot in which this side's own sending,
     *        NI drain or timers can produce a callback or an engine event (TX_BEGIN / TX_END,
     *        RETRANSMISSION, NAK_SENT, a delivery, TIMEOUT, a Shutdown), whatever it
     *        receives meanwhile, except receptions that themselves produce one (corrupted
     *        or rejected micro-packets, Init, NAKs, header and tail micro-packets: the engine
     *        bounds those from the line).
     *
     * \p slot itself if the side is not Normal or a NAK or a resend is pending; otherwise the
     * minimum of: slot + p for the first header or tail micro-packet at depth p of a VC's
     * send queue (at most one micro-packet per slot leaves) or of a draining VC buffer (at
     * most one per slot is drained); the oldest retry entry's AckTime expiry, or slot +
     * AckTime if the retry buffer is empty (entries are in send order, so a later one
     * expires no earlier); every running CrdNullTime, and slot + CrdNullTime for one that
     * may start.
     * \param slot the next slot to run.
     * \return the bound.
     */
    uint64_t EarliestOwnEvent(uint64_t slot) const;

    /// \return the Null micro-packet an idle side sends (AskNo = FrameExpected - 1).
    DirectLinkFlit::Fields IdleTx() const;

    /**
     * \brief Account for \p n slots of an idle side in bulk (exactly what n BuildTx /
     *        Receive(correct Null) / EndOfSlot rounds would do: n Null micro-packets sent).
     * \param n the number of slots.
     */
    void SkipIdle(uint64_t n);

    /**
     * \param s a state.
     * \return its name.
     */
    static std::string StateName(LinkState s);

    /**
     * \param r a reason.
     * \return its name.
     */
    static std::string ReasonName(ResetReason r);

    /**
     * \param r a truncation reason.
     * \return its name, e.g. "UPSTREAM".
     */
    static std::string TruncationReasonName(TruncationReason r);

    /**
     * \param r a loss reason.
     * \return its name, e.g. "FALSE_ACK".
     */
    static std::string LossReasonName(LossReason r);

  private:
    /// An entry of the retry buffer.
    struct RetryEntry
    {
        DirectLinkFlit::Fields fields; //!< the micro-packet (AskNo refreshed on resend)
        FlitTag tag;                   //!< ground truth
        uint64_t deadline{NEVER};      //!< AckTime expiry slot
        uint32_t retransLeft{0};       //!< RetransTime counter
    };

    /// A queued or buffered micro-packet with its tag.
    struct TaggedFlit
    {
        DirectLinkFlit::Fields fields; //!< fields
        FlitTag tag;                   //!< ground truth
    };

    /// Reassembly in progress on one VC.
    struct Reassembly
    {
        bool active{false};                        //!< a header was received
        uint64_t messageId{NEVER};                 //!< ground truth of the header
        std::vector<DirectLinkFlit::Fields> flits; //!< flits so far
    };

    /// \return the AskNo to send: FrameExpected - 1 mod 31.
    uint32_t MyAskNo() const;
    /// \param askNo a received AskNo; frees the entries it acknowledges.
    /// \param slot the slot at whose end it arrived (for the ack callback).
    void ProcessAck(uint32_t askNo, uint64_t slot);
    /// \brief Go back to AskExpected, or Shutdown if RetransTime is exhausted.
    /// \param slot the slot.
    void GoBack(uint64_t slot);
    /// \brief Shutdown / re-init clean-up, then Initial from slot + 1.
    /// \param slot the slot. \param reason why.
    void Reset(uint64_t slot, ResetReason reason);
    /// \param slot the slot at whose end Normal is entered.
    void EnterNormal(uint64_t slot);
    /// \return the Crdt field: one owed credit per VC (taken).
    uint32_t TakeOwedCredits();
    /// \brief NI: hand a drained micro-packet to reassembly.
    /// \param slot the slot. \param vc the VC. \param f the micro-packet.
    void FeedReassembly(uint64_t slot, uint32_t vc, const TaggedFlit& f);
    /// \brief Deliver the message being reassembled on a VC.
    /// \param slot the slot. \param vc the VC. \param truncated cut by a reset.
    /// \param reason why it was cut (if truncated).
    void Deliver(uint64_t slot, uint32_t vc, bool truncated,
                 TruncationReason reason = TruncationReason::PEER_INIT);

    DirectLinkConfig m_cfg;                //!< configuration
    LinkState m_state{LinkState::INITIAL}; //!< link state
    bool m_peerSeen{false};                //!< Init or Init-Ack received in Initial
    uint64_t m_initialEntry{0};            //!< first slot of the current Initial

    // sender
    std::deque<RetryEntry> m_retry; //!< retry buffer, oldest first
    uint32_t m_resendPos{0};        //!< NextFrameToSend - AskExpected
    uint32_t m_askExpected{0xF};    //!< AskExpected (XmSN)
    std::array<std::deque<TaggedFlit>, DirectLinkConfig::NUM_VCS> m_txQueue; //!< NI queues
    std::array<uint32_t, DirectLinkConfig::NUM_VCS> m_credit{};              //!< credits
    std::array<uint64_t, DirectLinkConfig::NUM_VCS> m_creditZeroSince{};     //!< CrdNullTime
    uint32_t m_rrVc{0};       //!< round-robin pointer
    uint64_t m_nextSerial{0}; //!< FlitTag::serial of the next retry-buffer entry

    // receiver
    uint32_t m_frameExpected{0xF}; //!< FrameExpected (RcvSN)
    std::array<std::deque<TaggedFlit>, DirectLinkConfig::NUM_VCS> m_vcBuf; //!< VC buffers
    std::array<uint32_t, DirectLinkConfig::NUM_VCS> m_owed{};              //!< credits owed
    std::array<Reassembly, DirectLinkConfig::NUM_VCS> m_rx;                //!< reassembly
    bool m_nakPending{false};                                              //!< a NAK is to be sent
    bool m_nakArmed{true}; //!< the next out-of-sequence reception sends a NAK

    Counters m_counters;          //!< counters
    DeliveryCallback m_deliverCb; //!< delivery callback
    AbandonCallback m_abandonCb;  //!< abandon callback
    StateCallback m_stateCb;      //!< state callback
    AckCallback m_ackCb;          //!< ack callback
};

} // namespace ns3

#endif /* DIRECT_LINK_ENDPOINT_STATE_H */
