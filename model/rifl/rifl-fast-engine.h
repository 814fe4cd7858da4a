/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_FAST_ENGINE_H
#define RIFL_FAST_ENGINE_H

#include "ns3/bit-error-process.h"
#include "ns3/ptr.h"
#include "ns3/rifl-frame.h"
#include "ns3/sync-loss-process.h"
#include "rifl-lane-state.h"
#include "rifl-link-config.h"
#include "rifl-link-counters.h"
#include "rifl-link-engine.h"
#include "rifl-payload.h"

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-protocol
 * \brief The fast RIFL link engine: observably identical to RiflReferenceEngine,
 *        with a cost that grows with packets, errors and state changes, not with slots.
 *
 * It is a hybrid of two modes.
 *
 * **Slot mode.** Every slot that is not provably quiescent is stepped with the
 * very rules the reference uses (RiflLaneState: priority encoder, replay and
 * resume counters, buffer, aligner, key counters, exp_id/thr), in the same
 * order (receive: endpoint A's lanes, then B's; drain A, B; transmit A, B),
 * with the same counters and events at the same slots. What it does not do is
 * carry real line bits for every frame: a frame on the line is its logical
 * content, its TX Frame ID and the 33-bit TX scrambler state before it.
 *
 * **Real bits only where they matter.** A frame is received "logically"
 * (decoded fields = the sent fields, check passed iff its Frame ID equals
 * exp_id) when no bit error and no loss of sync touches it and the receiver's
 * descrambler is in step with the sender's scrambler. That is exact: the
 * check is affine in the line bits (mismatch = XOR of the errored bits'
 * syndromes XOR TX ID XOR exp_id), and a self-synchronous descrambler whose
 * 33-bit history equals the scrambler's returns exactly the clear bits.
 * Otherwise the frame is materialised with the *same* bits the reference
 * puts on the line: RiflFrame::Encode() from the tracked TX scrambler state,
 * the sync-loss zeros and error flips applied, and RiflFrame::Decode() with the
 * receiver's real descrambler state (TX state XOR the tracked difference
 * delta, the received-minus-sent history; delta = 0 after any clean frame
 * because the scrambled field is longer than 33 bits). So errored frames, the
 * frame after them (whose first 33 descrambled bits carry the previous
 * errors), loss-of-sync zeros (whose effect on the next frame depends on the
 * real scrambler state) and errored sync-loss frames are all bit-exact.
 *
 * The TX scrambler state is tracked without scrambling every frame: the
 * scrambler is linear over GF(2), so the state after a frame is
 * M s XOR c(frame), with M the 33x33 matrix of S-14 zero-input steps and
 * c(frame) the state after the frame from state 0 (0 for a fill frame,
 * constants for control frames and FC notifications, one scrambling pass for
 * a user frame). A stretch of N fill frames is M^N s, computed by squaring.
 *
 * **Run mode.** When the link is quiescent it jumps over whole multiples of
 * D = 2^FrameIdWidth slots in O(L + lanes + log N). Quiescent means: both
 * TX queues empty, every FC FIFO empty, every lane of both endpoints in
 * NORMAL, start-up rollback done, no FC level notified and no remote FC
 * pause, RX up, descramblers in step, and no "activity" (any frame other than
 * a clean in-sequence fill frame sent or received, any state other than
 * NORMAL, any FIFO traffic) for L + 24 slots, so that the line, the key
 * counters (16 regular frames) and the aligner window are steady. In such a
 * stretch every per-slot rule is periodic with period D (Frame IDs, exp_id
 * and thr mod D; aligner window mod 16, D >= 32; saturated rollback, resume
 * and RX-up counters), so RiflLaneState is left untouched except for its
 * buffer, which is refilled with fill frames; the frames in flight keep their
 * IDs and get their lineSlot shifted and their scrambler state multiplied by
 * M^N; counters grow by N x lanes (fill frames, NORMAL lane-slots, frames
 * received, data frames delivered) and the drain credit saturates exactly as
 * the repeated additions would. The one rule value not advanced, the 16-regular
 * counter, is only ever compared with 16 and is >= 16 on both sides, so it is
 * unobservable. A jump stops at the AdvanceTo() target and at the receive slot
 * (line slot + L + 4) of the next bit error or loss-of-sync event of any
 * (direction, lane) stream (BitErrorProcess::Peek(), SyncLossProcess::Peek()).
 *
 * **Loaded run mode.** While packets flow it jumps at a cost per frame and
 * per packet instead of one full slot step per slot. Steadily loaded means:
 * every lane of both endpoints in NORMAL with rollback and resume wait done,
 * no FC level notified, no remote FC pause, RX up, no Frame Error, request
 * flags clear and the key monitor saturated (16 regular frames), aligner
 * window without illegal headers, descramblers in step; the last L + 24 slots
 * free of anything but clean in-sequence Data frames (user or fill); an
 * no lane skew (LaneSkew all 0; with skew the user side waits for the
 * lagging lane and such stretches are stepped); an
 * unlimited drain (so the FC FIFO never holds more than 2 frames at the TX,
 * Thr_ON >= 2 is required); and the user side in step with the senders (the
 * pending user frames, FIFO then line, are consecutive segments on
 * consecutive lanes from the drain pointer). Then every slot up to the next
 * error or sync-loss receive slot is determined: segment j of a queue goes on
 * lane (pointer + j) mod N in line slot t + 1 + j / N, every frame passes and
 * exp_id/thr/TX IDs advance by one per slot (RiflLaneState::AdvanceSteady()),
 * each user frame reaches the user at line slot + L + 6 in segment order. The
 * jump emits TX_BEGIN/TX_END, deliveries (with word latencies) in the
 * reference's order (per slot: deliveries A, B, then TX events A, B), updates
 * counters, the FIFOs (entries ready after the jump), the last D buffer
 * entries and the frames still in flight, and tracks the TX scrambler states
 * frame by frame (c(frame) from per-byte tables, computed when offered).
 * It ends when both queues are dealt plus L + 8 slots, at the AdvanceTo()
 * target, or at the next error receive slot. The state "steadily loaded" is
 * cached across consecutive loaded jumps (a loaded jump preserves it).
 *
 * **Sparse stepping.** In a stepped stretch where neither sender can deal user data
 * (its queue is empty, or the lane its round robin waits on has a replay, resume wait
 * or rollback to go: RiflLaneState::GetUserReadyWait() > 0), as in a recovery, whose
 * replay stalls both bonding groups, the lanes whose two directions carry nothing but
 * fill frames are left out of the slots ("dormant"): both lane states in NORMAL with
 * rollback and resume wait done, no FC level notified or remote FC pause, no Frame
 * Error or request flag, key monitor saturated, aligned and up with no illegal header
 * in the window, exp_id = thr, FC FIFO at or below Thr_ON (it can only drain), and
 * every frame on the line a clean fill with the lane's current fill tag and the IDs
 * the receiver expects. Such a lane would send a fill, push it into its buffer (while
 * it holds fewer than D), receive a fill in sequence and count them, nothing else, and
 * nothing else reads it: its counters are kept per slot, and its line, buffer and
 * state are caught up when it wakes (AdvanceSteady() and the fills still in flight).
 * Every dormant lane wakes before a slot where a sender could deal, an error,
 * sync-loss or skip slot (JumpHorizon()), after a quiet step (a jump may follow), and
 * before AdvanceTo() returns. Off with self-check or scrambler tracking.
 *
 * **Deferred offers** (OfferPayloadAt()): a packet offered for a later slot waits
 * in an arrival list and joins the TX queue when the engine reaches its slot, as
 * AdvanceTo(slot) and OfferPayload() would have put it. A batched jump takes the
 * arrivals of its stretch on the way (the queue resumes in the arrival slot on the
 * round-robin lane when it had run dry); every other mode stops at an arrival.
 * NextEventSlot() bounds the first arrival's callbacks (its TX events and delivery on
 * a steadily loaded link, the arrival slot itself otherwise).
 *
 * **Clock domains** (§6.1, see RiflReferenceEngine): skip slots of the slower
 * clock and the compensation slots of the faster one are always stepped (they
 * bound every jump, JumpHorizon()) and count as activity, so a jump starts only
 * L + 24 slots after the last one, when the line gap has been received.
 *
 * Equivalence with the reference is checked by the rifl-engine-equivalence
 * test suite (deliveries, events and counters on randomized scenarios).
 */
class RiflFastEngine : public RiflLinkEngine
{
  public:
    /// Endpoint A.
    static constexpr uint32_t ENDPOINT_A = 0;
    /// Endpoint B.
    static constexpr uint32_t ENDPOINT_B = 1;

    /**
     * \brief Make an engine at power-on (slot 0).
     * \param config the link; validated (std::invalid_argument on a bad value).
     */
    explicit RiflFastEngine(const RiflLinkConfig& config);

    /// \return the configuration.
    const RiflLinkConfig& GetConfig() const override;

    /**
     * \brief Attach the bit errors of one direction and lane (slots = line slots).
     * \param sender the sending endpoint, 0 or 1.
     * \param lane the lane, below Lanes.
     * \param process the stream (its frame bits are set to S); null removes it.
     */
    void SetErrorProcess(uint32_t sender, uint32_t lane, Ptr<BitErrorProcess> process) override;

    /**
     * \brief Attach the loss-of-sync events of one direction and lane.
     * \param sender the sending endpoint, 0 or 1.
     * \param lane the lane, below Lanes.
     * \param process the events; null removes them.
     */
    void SetSyncLossProcess(uint32_t sender, uint32_t lane, Ptr<SyncLossProcess> process) override;

    /**
     * \brief Queue a user packet at an endpoint's TX (kept until sent).
     * \param endpoint the sender, 0 or 1.
     * \param packetId any id (reported with the delivery).
     * \param payload the bytes, 1..1e8.
     */
    void OfferPacket(uint32_t endpoint, uint64_t packetId,
                     const std::vector<uint8_t>& payload) override;

    /**
     * \brief OfferPacket() without a copy: the engine keeps the shared payload and
     *        reads its bytes only when a frame or a delivery needs them.
     * \param endpoint the sender, 0 or 1.
     * \param packetId any id (reported with the delivery).
     * \param payload the bytes, 1..1e8, not null; never changed after.
     */
    void OfferPayload(uint32_t endpoint, uint64_t packetId,
                      std::shared_ptr<const RiflPayload> payload) override;

    /**
     * \brief OfferPayload() at a later slot (see RiflLinkEngine): the packet waits in
     *        an arrival list and joins the TX queue when the engine reaches \p slot.
     *        Not before the first OfferPayload() (the start-up runs from a template
     *        until then).
     * \param endpoint the sender, 0 or 1.
     * \param packetId any id (reported with the delivery).
     * \param payload the bytes, 1..1e8, not null; never changed after.
     * \param slot its arrival: GetSlot() or later, and no earlier than the
     *        endpoint's previous deferred arrival (std::invalid_argument otherwise).
     * \return true if it was taken (false before the first OfferPayload()).
     */
    bool OfferPayloadAt(uint32_t endpoint, uint64_t packetId,
                        std::shared_ptr<const RiflPayload> payload, uint64_t slot) override;

    /**
     * \param endpoint 0 or 1.
     * \return for the endpoint's first pending arrival, its slot on a quiescent link
     *         that is not steadily loaded, else BoundArrivalEvents()'s bound of its TX
     *         events (where asked for) and delivery; 0 with no pending arrival.
     */
    uint64_t BoundFirstArrival(uint32_t endpoint) override;

    /**
     * \brief Run every slot before \p slot, jumping over quiescent stretches.
     * \param slot the first slot not to run.
     */
    void AdvanceTo(uint64_t slot) override;

    /// \return the slot run next.
    uint64_t GetSlot() const override;

    /**
     * \brief The earliest slot whose step may fire a callback.
     *
     * On a quiescent link, the receive slot of the next error or loss-of-sync
     * event (NEVER if none); on a steadily loaded link (see the class
     * documentation) the first of: the next TX_BEGIN / TX_END (of the kinds
     * SetTxEventWakes() asks for), the next delivery, that receive slot; otherwise
     * the current slot.
     * \return the slot, or NEVER.
     */
    uint64_t NextEventSlot() override;

    /**
     * \brief NextEventSlot() for a caller that wakes for deliveries and the TX events
     *        SetTxEventWakes() asks for only. Where NextEventSlot() gives the current
     *        slot (a link that is stepped: a recovery, flow control, the start-up),
     *        a lower bound from the state: the next error, skip or sync-loss slot
     *        (JumpHorizon()); per receiver, the ready slot of the first packet end
     *        its FIFOs hold in drain order, or where the lane it waits on has no
     *        frame, of that lane's next user frame on the line (or of a frame sent
     *        now); per sender with TX wakes and packets queued, the slot its
     *        round-robin lane can take user data at the earliest
     *        (RiflLaneState::GetUserReadyWait()) and, for TX_END, the rest of the
     *        head packet at Lanes segments a slot; the first arrival's events.
     * \return the slot, or NEVER.
     */
    uint64_t NextWakeSlot() override;
    uint32_t NextEventEndpoint() const override;
    void SetLeanDeliveries(bool on) override;
    void SetTxEventWakes(uint32_t endpoint, bool begin, bool end) override;

    /**
     * \param endpoint an endpoint.
     * \return the packets offered there whose last frame has not gone on the line yet.
     */
    uint64_t GetPendingPackets(uint32_t endpoint) const override;

    /**
     * \brief What GetPendingPackets() would return after AdvanceTo(\p slot) with no
     *        packet offered meanwhile, without running: on a steadily loaded link
     *        with no error, skip or sync-loss slot before \p slot (JumpHorizon()),
     *        where a batched jump would deal the queue and the arrivals (their
     *        stretches) Lanes segments per slot, the packets whose last segment it
     *        would deal before \p slot are done.
     * \param endpoint 0 or 1.
     * \param slot a slot not before GetSlot().
     * \param pending set to the count if known.
     * \return false where the engine cannot tell (not steady, an error or skip slot
     *         before \p slot, the start-up template, self-check or scrambler tracking).
     */
    bool PredictPendingPackets(uint32_t endpoint, uint64_t slot, uint64_t* pending) override;

    /**
     * \param endpoint an endpoint (the receiver).
     * \return the packet-ending user frames in its RX FC FIFOs not yet taken by the
     *         user (packets received in part; after an out-of-order delivery, spec
     *         11.8, the ones stranded behind the lane that skipped frames).
     */
    uint64_t GetHeldPacketEnds(uint32_t endpoint) const override;

    /**
     * \param endpoint 0 or 1.
     * \return its counters.
     */
    const RiflEndpointCounters& GetCounters(uint32_t endpoint) const override;

    /**
     * \param cb the delivery callback (empty to remove).
     */
    void SetDeliveryCallback(DeliveryCallback cb) override;

    /**
     * \param cb the event callback (empty to remove).
     */
    void SetEventCallback(EventCallback cb) override;

    /**
     * \param endpoint 0 or 1.
     * \param lane below Lanes.
     * \return the lane's protocol state.
     */
    const RiflLaneState& GetLaneState(uint32_t endpoint, uint32_t lane) const;

    /// \return the number of slots run one by one (slot mode).
    uint64_t GetSteppedSlots() const;

    /// \return the number of slots jumped over (run mode).
    uint64_t GetJumpedSlots() const;

    /// \return the number of slots jumped over with traffic (loaded run mode; part of
    ///         GetJumpedSlots()).
    uint64_t GetLoadedJumpedSlots() const;

    /// \return the number of slots jumped in batched loaded mode (part of
    ///         GetLoadedJumpedSlots(); used when no TX scrambler state is tracked).
    uint64_t GetBatchedSlots() const;

    /// \return the number of slots of RX-up waits jumped over (part of GetJumpedSlots()).
    uint64_t GetPauseWaitJumpedSlots() const;

    /// \return the number of frames materialised as real bits.
    uint64_t GetMaterialisedFrames() const;

    /// \return the lane-slots of stepped slots that sparse stepping skipped (a lane of one
    ///         endpoint for one slot counts once; see the class documentation).
    uint64_t GetDormantLaneSlots() const;

    /**
     * \brief Self-check mode for tests: also run a real continuous scrambler per
     *        (direction, lane) in slot mode and abort (NS_ABORT) if the tracked
     *        state ever differs, in slot mode and in loaded jumps. Must be set
     *        before the first slot; disables the quiescent jumps.
     * \param on true to enable.
     */
    void SetSelfCheck(bool on);

    /**
     * \brief Start-up templates (on by default).
     *
     * Without input, an engine's start-up (Init, the RX-up wait, the first
     * replays of the invalid buffer) depends on its configuration alone. With
     * templates on, the first engine of a configuration runs its start-up up to
     * the first quiescent slot once, and keeps that state and its events as a
     * template (per process, at most 256 configurations); an engine that has had
     * no packet yet, tracks no scrambler state (self-check, sync-loss
     * processes) and whose error processes hold no error received before that
     * slot then emits the template's events at their slots and takes the
     * template's state when it passes that slot, instead of stepping every
     * start-up slot. An input before that slot (a packet, a process, a counter
     * or lane-state read) runs the start-up slot by slot up to the current
     * slot first, without repeating the events already emitted: results never
     * change, only the work (GetTemplatedSlots()).
     * \param on true to use templates.
     */
    void SetStartupTemplates(bool on);

    /// \return the start-up slots taken from a template instead of being run (0 if none).
    uint64_t GetTemplatedSlots() const;

    /**
     * \brief Jumps (on by default): off, the engine steps every slot with the per-slot
     *        rules, with no quiescent or loaded jump and no start-up template.
     *
     * Results never change, only the work: tests and the rifl-engine fuzz target
     * compare an engine with jumps against one without, to check every jump's entry
     * conditions at a fraction of the reference engine's cost. Must be set before
     * the first slot.
     * \param on false to step every slot.
     */
    void SetJumps(bool on);

  private:
    /**
     * \brief Refuse a setter once the engine has run a slot or taken a packet.
     * \param setter its name, for the message.
     */
    void RequireNotStarted(const char* setter);

    /**
     * \brief Refuse a call made from a delivery or event callback (inside AdvanceTo()):
     *        std::invalid_argument naming \p method. The engine holds state mid-slot
     *        there (dormant lanes, a jump's callbacks), which such a call would see or
     *        change out of order.
     * \param method the method's name, for the message.
     */
    void RequireNotAdvancing(const char* method) const;

    struct StartupTemplate;

    /**
     * \param config a configuration.
     * \return the start-up template of \p config (made on first use), or null when
     *         there is none (the start-up does not end within 2^22 slots, or the
     *         cache is full).
     */
    static std::shared_ptr<const StartupTemplate> GetStartupTemplate(const RiflLinkConfig& config);

    /// \return true while this engine follows a start-up template (deciding so at
    ///         the first call: see SetStartupTemplates()). Inline: every AdvanceTo()
    ///         and NextEventSlot() asks.
    bool InTemplate()
    {
        return m_template || (!m_templateChecked && DecideTemplate());
    }

    /// \brief InTemplate()'s first call: decide whether this engine follows a template.
    /// \return true if it does.
    bool DecideTemplate();

    struct QueuedPacket;

    /**
     * \brief Put a packet at the end of an endpoint's TX queue (OfferPayload()).
     * \param endpoint the sender.
     * \param qp the packet, with its segments set.
     */
    void Enqueue(uint32_t endpoint, QueuedPacket qp);

    /**
     * \brief A packet for the TX queue, its size checked (1..1e8 bytes,
     *        std::invalid_argument otherwise) and its segments counted.
     * \param packetId its id.
     * \param payload its bytes.
     * \return the packet.
     */
    QueuedPacket MakeQueued(uint64_t packetId, std::shared_ptr<const RiflPayload> payload) const;

    /// Move the OfferPayloadAt() arrivals of the current slot into the TX queues.
    void AdmitArrivals();

    /// \return the slot of the next OfferPayloadAt() arrival of either endpoint, or NEVER.
    uint64_t NextArrival() const;

    /**
     * \brief A lower bound on the slots of the callbacks the next OfferPayloadAt()
     *        arrival of each endpoint brings (its TX_BEGIN or TX_END where asked
     *        for, else its delivery), for NextEventSlot(); sets m_nextEndpoint
     *        when it is below \p h.
     * \param h the bound so far.
     * \return the new bound.
     */
    uint64_t BoundArrivalEvents(uint64_t h);

    /**
     * \brief BoundArrivalEvents() for one endpoint's first arrival.
     * \param s the sender.
     * \param hint set to the endpoint its smallest bound calls back (unchanged if NEVER).
     * \return the bound, or NEVER without an arrival.
     */
    uint64_t BoundArrival(uint32_t s, uint32_t* hint) const;

    /**
     * \param r a receiving endpoint (stepped mode: no batch).
     * \return a lower bound on the slot of its next delivery (NextWakeSlot()).
     */
    uint64_t BoundSteppedDelivery(uint32_t r) const;

    /**
     * \brief Emit the template's events of slots before \p slot not emitted yet.
     * \param slot the first slot not to emit.
     */
    void EmitTemplateEvents(uint64_t slot);

    /// \brief Take the template's state at its end slot (after its last events).
    void AdoptTemplate();

    /// \brief Stop following the template: run the start-up slot by slot up to the
    ///        current slot, its events emitted already muted.
    void LeaveTemplate();

    /// A 33x33 GF(2) matrix, by columns (column j = image of state bit j).
    using Matrix = std::array<uint64_t, 33>;

    /// A frame on the line (logical; bits are rebuilt on demand).
    struct LineFrame
    {
        uint64_t lineSlot{0};                   //!< slot it is on the line
        /// the logical frame sent (shared); null for a user data frame left unbuilt
        /// (no scrambler state tracked): the bytes of \c payload from tag.byteOffset
        std::shared_ptr<const RiflFrame> frame;
        std::shared_ptr<const RiflPayload> payload; //!< a null frame's packet, else null
        RiflFrameTag tag;                           //!< ground truth
        uint32_t txId{0};                           //!< TX Frame ID it carries
        uint64_t scrBefore{0};                      //!< TX scrambler state before it
        bool fill{false};                           //!< a Meta-00 fill frame (content all zero)

        /// \brief Release what it owns (Ring::pop_front()).
        void Release()
        {
            frame.reset();
            payload.reset();
        }
    };

    /// A user frame received during a loaded jump.
    struct Received
    {
        uint64_t lineSlot{0};                   //!< its line slot
        uint32_t lane{0};                       //!< its lane
        RiflFrameTag tag;                       //!< its tag
        std::shared_ptr<const RiflFrame> frame; //!< its content
    };

    /// A user frame in the FC FIFO.
    struct FifoEntry
    {
        uint64_t readySlot{0};                  //!< first slot the user may take it
        /// the frame sent, if decoded as sent (null for an unbuilt one: see payload)
        std::shared_ptr<const RiflFrame> frame;
        /// the packet of an unbuilt frame decoded as sent (bytes from tag.byteOffset)
        std::shared_ptr<const RiflPayload> payload;
        std::vector<uint8_t> bytes; //!< with neither, the user bytes decoded
        uint32_t nBytes{0};         //!< user bytes
        bool eop{false};            //!< last frame of a packet
        RiflFrameTag tag;           //!< ground truth

        /// \return the user bytes.
        const uint8_t* Data() const
        {
            return frame ? frame->GetPayload().data()
                         : (payload ? payload->GetData() + tag.byteOffset : bytes.data());
        }

        /// \brief Release what it owns (Ring::pop_front()).
        void Release()
        {
            frame.reset();
            payload.reset();
            bytes = std::vector<uint8_t>();
        }
    };

    /// A user segment waiting at the TX. Its Data frame is built only when a
    /// frame object is needed (slot mode, the retransmission buffer, the line).
    struct Segment
    {
        std::shared_ptr<const RiflPayload> payload; //!< its packet's bytes (shared)
        mutable std::shared_ptr<const RiflFrame> frame;      //!< the Data frame, once built
        uint64_t packetId{0};                                //!< its packet
        uint32_t byteOffset{0};                              //!< offset in the packet
        uint32_t nBytes{0};                                  //!< user bytes it carries
        bool first{false};                                   //!< first segment of its packet
        bool last{false};                                    //!< last segment of its packet
        uint64_t content{0};  //!< c(frame), when the scrambler is tracked
        uint64_t groupSeq{0}; //!< endpoint-wide user-segment number (dealt)
    };

    /// A packet waiting at the TX; its segments are dealt from `next` on.
    struct QueuedPacket
    {
        std::shared_ptr<const RiflPayload> payload; //!< its bytes (shared)
        uint64_t packetId{0};                                //!< its id
        uint32_t segments{0};                                //!< its segments (frames)
        uint32_t next{0};                                    //!< the next segment to deal
    };

    /**
     * \brief Batched mode (EnterBatch()): consecutive user frames of one packet
     *        dealt in one batched jump, or (single) one user frame from before
     *        the batch. The lane structures (buffer, line, FIFO) are built from
     *        these only when the batch ends (LeaveBatch()).
     */
    struct alignas(64) Run
    {
        // Every run (the first cache line): a batched jump writes these and the
        // per-lane marks of its lanes only.
        /// its packet's bytes (batched; for a single, the packet of its unbuilt frame)
        std::shared_ptr<const RiflPayload> payload;
        uint64_t packetId{0};                                //!< its packet (batched)
        uint64_t groupSeq0{0};                               //!< groupSeq of frame 0 (batched)
        uint64_t lineSlot{0};                                //!< line slot of frame 0
        uint32_t seg0{0};                                    //!< its first segment (batched)
        uint32_t count{1};                                   //!< its frames
        uint32_t segments{0};                                //!< its packet's segments (batched)
        uint32_t pos0{0};                                    //!< frame 0's place in its slot
        uint32_t lane0{0};                                   //!< lane of frame 0
        bool single{false};                                  //!< one frame from before the batch
        uint8_t sender{0};                                   //!< its sender (batched)

        /// Where a lane's sequence numbers stood when the run began (batched).
        struct LaneMark
        {
            uint64_t seq{0}; //!< the lane's laneSeq
            uint64_t eop{0}; //!< the lane's laneEopSeq (packet-ending user frames before)
        };

        std::array<LaneMark, 16> lanes{}; //!< per lane (the first Lanes entries are used)

        // Single runs only (never written or released for a batched one).
        /// single: the frame (null for an unbuilt one: payload is its packet)
        std::shared_ptr<const RiflFrame> frame;
        std::vector<uint8_t> bytes;             //!< single: with neither, the user bytes decoded
        RiflFrameTag tag;                       //!< single: its tag
        uint64_t ready{0};                      //!< single: first slot the user may take it
        uint32_t nBytes{0};                     //!< single: user bytes
        bool eop{false};                        //!< single: last frame of a packet

        /// \brief Release what it owns (Ring::pop_front()).
        void Release()
        {
            payload.reset();
            if (single)
            {
                frame.reset();
                bytes = std::vector<uint8_t>();
            }
        }
    };

    /**
     * \brief A FIFO in one growing power-of-two array, for the engine's queues
     *        of large elements (std::deque allocates a block per few of them,
     *        one per Run).
     * \tparam T the element type (default-constructible and movable).
     */
    template <typename T> class Ring
    {
      public:
        /**
         * \brief A forward iterator over a Ring.
         * \tparam R the Ring type (const or not).
         * \tparam V the element type as seen (const or not).
         */
        template <typename R, typename V> class Iter
        {
          public:
            /**
             * \param r the ring.
             * \param i an index.
             */
            Iter(R* r, std::size_t i)
                : m_r(r)
                , m_i(i)
            {
            }

            /// \return the element.
            V& operator*() const
            {
                return (*m_r)[m_i];
            }

            /// \return the element.
            V* operator->() const
            {
                return &(*m_r)[m_i];
            }

            /// \return this iterator, advanced by one.
            Iter& operator++()
            {
                ++m_i;
                return *this;
            }

            /**
             * \param o another iterator of the same ring.
             * \return true if they differ.
             */
            bool operator!=(const Iter& o) const
            {
                return m_i != o.m_i;
            }

          private:
            R* m_r;          //!< the ring
            std::size_t m_i; //!< the index
        };

        Ring() = default;
        /// \brief Copy (the elements and their order).
        Ring(const Ring&) = default;
        /// \brief Copy (the elements and their order). \return this ring.
        Ring& operator=(const Ring&) = default;

        /**
         * \brief Move; the source is left empty and usable (no capacity).
         * \param o the source.
         */
        Ring(Ring&& o) noexcept
        {
            *this = std::move(o);
        }

        /**
         * \brief Move; the source is left empty and usable (no capacity).
         * \param o the source.
         * \return this ring.
         */
        Ring& operator=(Ring&& o) noexcept
        {
            if (this != &o)
            {
                m_items = std::move(o.m_items);
                m_capacity = o.m_capacity;
                m_mask = o.m_mask;
                m_head = o.m_head;
                m_size = o.m_size;
                o.m_items.clear();
                o.m_capacity = o.m_mask = o.m_head = o.m_size = 0;
            }
            return *this;
        }

        /// \return the number of elements.
        std::size_t size() const
        {
            return m_size;
        }

        /// \return true if there are none.
        bool empty() const
        {
            return m_size == 0;
        }

        /**
         * \param i an index below size().
         * \return the element.
         */
        T& operator[](std::size_t i)
        {
            return m_items[(m_head + i) & m_mask];
        }

        /**
         * \param i an index below size().
         * \return the element.
         */
        const T& operator[](std::size_t i) const
        {
            return m_items[(m_head + i) & m_mask];
        }

        /// \return the first element.
        T& front()
        {
            return (*this)[0];
        }

        /// \return the first element.
        const T& front() const
        {
            return (*this)[0];
        }

        /// \return the last element.
        T& back()
        {
            return (*this)[m_size - 1];
        }

        /// \return an iterator to the first element.
        Iter<Ring, T> begin()
        {
            return {this, 0};
        }

        /// \return the end iterator.
        Iter<Ring, T> end()
        {
            return {this, m_size};
        }

        /// \return an iterator to the first element.
        Iter<const Ring, const T> begin() const
        {
            return {this, 0};
        }

        /// \return the end iterator.
        Iter<const Ring, const T> end() const
        {
            return {this, m_size};
        }

        /**
         * \brief Append an element.
         * \param r the element.
         */
        void push_back(T&& r)
        {
            push_back_slot() = std::move(r);
        }

        /**
         * \brief Append an element in place (no construction, no copy).
         * \return the new last element, default-constructed or in the state
         *         pop_front() left a former element in (T::Release()): the caller sets
         *         every field it uses.
         */
        T& push_back_slot()
        {
            if (m_size == m_capacity)
            {
                Grow();
            }
            return (*this)[m_size++];
        }

        /// \brief Drop the first element (its resources are released at once).
        void pop_front()
        {
            front().Release();
            m_head = (m_head + 1) & m_mask;
            --m_size;
        }

        /// \brief Drop every element.
        void clear()
        {
            while (m_size > 0)
            {
                pop_front();
            }
        }

      private:
        /// \brief Double the slots (at least 16), keeping the elements in order (out of
        ///        line, so that push_back_slot() stays small enough to inline).
        [[gnu::noinline]] void Grow()
        {
            std::vector<T> bigger(std::max<std::size_t>(16, 2 * m_items.size()));
            for (std::size_t i = 0; i < m_size; ++i)
            {
                bigger[i] = std::move((*this)[i]);
            }
            m_items.swap(bigger);
            m_head = 0;
            m_capacity = m_items.size();
            m_mask = m_capacity - 1;
        }

        // The capacity and its mask are kept beside the vector: its size() is a
        // division by sizeof(T), which is not a power of two for most elements.
        std::vector<T> m_items;    //!< the slots (a power of two)
        std::size_t m_capacity{0}; //!< m_items.size()
        std::size_t m_mask{0};     //!< m_capacity - 1 (0 while empty)
        std::size_t m_head{0};     //!< index of the first element
        std::size_t m_size{0};     //!< elements held
    };

    /// The batched runs of one sender, oldest first.
    using RunQueue = Ring<Run>;

    /// One frame of a Run, as the per-frame structures would hold it.
    struct FrameView
    {
        RiflFrameTag tag;     //!< its tag
        uint64_t lineSlot{0}; //!< its line slot
        uint64_t ready{0};    //!< first slot the user may take it
        uint32_t lane{0};     //!< its lane
        uint32_t nBytes{0};   //!< user bytes
        bool eop{false};      //!< last frame of a packet
    };

    /// A position in a sender's runs: run index, frame index in it.
    struct Cursor
    {
        std::size_t run{0}; //!< the run
        uint32_t frame{0};  //!< the frame in it
    };

    /// One lane of one endpoint.
    struct Lane
    {
        /**
         * \brief A lane in its initial state (every other member at its default).
         * \param st the protocol state.
         */
        explicit Lane(RiflLaneState st)
            : state(std::move(st))
        {
        }

        RiflLaneState state;                     //!< protocol state
        uint64_t txScr{0};                       //!< TX scrambler state (outgoing direction)
        uint64_t rxDelta{0};                     //!< RX descrambler state XOR sender's TX state
        RiflScrambler checkScr;                  //!< self-check scrambler
        Ring<LineFrame> line;                    //!< outgoing frames in flight
        Ring<FifoEntry> fifo;                    //!< FC FIFO of the incoming direction
        Ptr<BitErrorProcess> errors;             //!< errors of the outgoing direction
        Ptr<SyncLossProcess> syncLoss;           //!< sync loss of the outgoing direction
        uint64_t txLaneSeq{0};                   //!< next user-frame sequence number sent
        uint64_t txLaneEopSeq{0};                //!< packet-ending user frames sent (ground truth)
        uint64_t rxNextSeq{0};                   //!< next user-frame sequence number expected
        uint64_t rxNextEopSeq{0};                //!< packet-ending user frames received in sequence
        uint64_t resyncReportedAt{~uint64_t{0}}; //!< rxNextSeq at the last RESYNC_AHEAD
        uint64_t txFcSeq{0};                     //!< FC notifications sent (ground truth)
        uint64_t rxNextFcSeq{0};                 //!< next FC notification expected
        bool linkUp{false};                      //!< was ready for user data once
        uint32_t fillPushes{0}; //!< fill frames pushed in a row (<= D; batched: set at batch end)
        /// the first slot of the lane's current run of fill frames sent in consecutive
        /// slots by Transmit() (or left out by sparse stepping)
        uint64_t fillSince{0};
        uint64_t fillLast{NEVER}; //!< the last slot of that run (NEVER before any)
    };

    /**
     * \brief Whether a non-user data frame accepted in sequence would be reported by
     *        NoteFcSequence() (notifications skipped) or NoteResyncAhead() (sent after user
     *        frames the receiver has not taken): ReceiveCleanFill() and sparse stepping
     *        take a fill only when it would not.
     * \param tag the frame's tag.
     * \param rx the receiving lane.
     * \return true if it would be reported.
     */
    static bool FillNeedsReport(const RiflFrameTag& tag, const Lane& rx)
    {
        return tag.fcSeq > rx.rxNextFcSeq
               || (tag.laneSeq > rx.rxNextSeq && rx.resyncReportedAt != rx.rxNextSeq);
    }

    /// Reassembly of the packet being received.
    struct Assembly
    {
        std::vector<uint8_t> bytes; //!< bytes so far (none while \c source is set)
        /// while lean deliveries are asked for and every frame so far carried the offered
        /// packet's own bytes in order from its start: that packet (its bytes are not
        /// copied; a lean delivery hands it back)
        std::shared_ptr<const RiflPayload> source;
        uint32_t size{0}; //!< number of bytes so far

        /// One frame taken.
        struct Frame
        {
            uint64_t accept;  //!< its accept slot
            uint64_t deliver; //!< its delivery slot
            uint32_t offset;  //!< its first byte's offset in the packet
        };

        std::vector<Frame> frames; //!< the frames so far, in order
        uint64_t packetId{0};      //!< id of its first frame
    };

    /// One endpoint.
    struct Endpoint
    {
        std::vector<Lane> lanes;          //!< lanes
        std::deque<QueuedPacket> txQueue; //!< packets waiting (in part)
        /// OfferPayloadAt(): packets arriving at a later slot, in slot order (slot, packet)
        std::deque<std::pair<uint64_t, QueuedPacket>> arrivals;
        uint64_t txSegments{0};           //!< segments waiting
        uint32_t txRoundRobin{0};         //!< next lane for a user segment
        uint32_t rxRoundRobin{0};         //!< next lane the user takes from
        double drainCredit{0.0};          //!< fractional drain credit
        Assembly assembly;                //!< packet being received
        RiflEndpointCounters counters;    //!< counters
        uint64_t linkUpSlot{NEVER};       //!< first all-ready slot
        uint64_t pendingPackets{0};       //!< packets whose last segment is not sent
        uint64_t txGroupSeq{0};           //!< next user-segment number dealt by the TX
        uint64_t rxGroupSeq{0};           //!< number of the last segment taken by the user, + 1
    };

    /// \brief Run one slot of both directions with the per-slot rules.
    void Step();

    /**
     * \brief Receive one frame at an endpoint's lane (in slot lineSlot + L + 4).
     * \param rx the receiving endpoint.
     * \param lane the lane.
     * \param f the frame.
     */
    void Receive(uint32_t rx, uint32_t lane, const LineFrame& f);

    /**
     * \brief Receive() of the commonest frame of a stepped slot, a clean fill frame
     *        accepted in sequence, at a fraction of its cost: the same state changes
     *        (RiflLaneState::TryDeliverInSequence()) and counters, no event.
     *
     * It applies when the frame is a fill frame with no bit error and no loss of sync,
     * the descrambler is in step, the receiver delivers it in sequence, and neither
     * NoteFcSequence() nor NoteResyncAhead() would report anything; otherwise it changes
     * nothing (the error and sync-loss streams may have dropped events before the
     * frame's line slot, as Receive() does first).
     * \param rx the receiving endpoint.
     * \param laneIndex the lane.
     * \param f the frame.
     * \return true if the frame was received; false to call Receive().
     */
    bool ReceiveCleanFill(uint32_t rx, uint32_t laneIndex, const LineFrame& f);

    /**
     * \brief Whether a loss of sync covers a line slot of a sender's lane (dropping the
     *        events that end before it).
     * \param sendLane the sending lane.
     * \param n the line slot.
     * \return true if the slot is in a loss of sync.
     */
    static bool SyncLostAt(const Lane& sendLane, uint64_t n);

    /**
     * \brief Spec 10.2 / 11.8 on a non-user data frame accepted in sequence: count and
     *        report a resynchronisation ahead of missing user frames (RiflIsResyncAhead()).
     * \param rx the receiving endpoint.
     * \param laneIndex the lane.
     * \param lane its state.
     * \param tag the frame's tag.
     * \param n its line slot.
     */
    void NoteResyncAhead(uint32_t rx, uint32_t laneIndex, Lane& lane, const RiflFrameTag& tag,
                         uint64_t n);

    /**
     * \brief Spec 10.2 / 10.3 / 11.8 on any data frame accepted in sequence: count and
     *        report the peer's flow-control notifications skipped before it, or the frame
     *        repeating one already acted on (RiflCheckFcSequence()).
     * \param rx the receiving endpoint.
     * \param laneIndex the lane.
     * \param lane its state.
     * \param tag the frame's tag.
     * \param fc the notification the frame was decoded as.
     * \param n its line slot.
     */
    void NoteFcSequence(uint32_t rx, uint32_t laneIndex, Lane& lane, const RiflFrameTag& tag,
                        RiflFrame::FcNotification fc, uint64_t n);

    /**
     * \brief Hand ready FIFO frames to an endpoint's user.
     * \param ep the endpoint.
     */
    void Drain(uint32_t ep);

    /**
     * \brief Hand one user frame to an endpoint's user (reassembly, delivery).
     * A packet whose frames all carry the offered packet's bytes, in order, is
     * delivered lean where lean deliveries are asked for (SetLeanDeliveries()):
     * its bytes are never copied.
     * \param ep the endpoint.
     * \param bytes its user bytes (unused, and may be null, when \p source is set).
     * \param source null, or the offered packet whose bytes from tag.byteOffset the
     *        frame carries.
     * \param nBytes how many.
     * \param eop it is the last frame of a packet.
     * \param tag its ground truth.
     * \param slot the slot it is taken.
     * \param defer if set, a completed delivery is appended here instead of
     *        calling the delivery callback.
     */
    void TakeFrame(uint32_t ep, const uint8_t* bytes,
                   const std::shared_ptr<const RiflPayload>& source, uint32_t nBytes, bool eop,
                   const RiflFrameTag& tag, uint64_t slot,
                   std::vector<RiflDelivery>* defer = nullptr);

    /**
     * \brief Run an endpoint's TX for the current slot.
     * \param ep the endpoint.
     * \param compensate its clock-compensation signal is active in this slot.
     */
    void Transmit(uint32_t ep, bool compensate);

    /**
     * \brief Sparse stepping (see the class documentation): mark the lanes that may
     *        leave the coming stepped slots, if no sender can deal user data now.
     * \return true if some lane is dormant now.
     */
    bool TryEnterSparse();

    /**
     * \param k a lane index.
     * \return true if lane \p k of both endpoints, and both directions of its line,
     *         meet the dormancy conditions now.
     */
    bool IsDormantLane(uint32_t k) const;

    /// \return true if no sender can deal a user segment in the current slot (sparse
    ///         stepping's condition, for the dormant lanes as they are).
    bool NoDealPossible() const;

    /// \brief Bring every dormant lane up to the current slot (line, buffer, state) and
    ///        end sparse stepping.
    void WakeDormant();

    /**
     * \return true if the link is quiescent now (a jump is allowed).
     */
    bool IsQuiescent() const;

    /**
     * \brief The first slot a jump must not pass (next error or sync-loss receive slot).
     * \return the slot, or NEVER.
     */
    uint64_t JumpHorizon();

    /**
     * \brief Jump over \p n quiescent slots (n a multiple of D).
     * \param n the slots.
     */
    void Jump(uint64_t n);

    /**
     * \brief What Drain() does to an endpoint's drain credit in \p n slots with empty
     *        FIFOs (saturating additions of its rate).
     * \param e the endpoint.
     * \param n the slots.
     */
    void AddIdleDrainCredit(uint32_t e, uint64_t n);

    /**
     * \brief The slots from now the link can jump in its RX-up wait (PauseWaitJump()).
     *
     * Every lane of both endpoints in SEND_PAUSE (buffer filled, no Frame Error), its
     * RX in the wait GetPauseWaitFrames() describes, its line full of the same Pause
     * Request, its FIFO empty: each slot then only counts, until a lane's RX comes up.
     * Not with a tracked scrambler (each Pause Request steps it) or the self-check.
     * \param stop the first slot not to pass (an arrival, the caller's target).
     * \return the slots (0: step this one).
     */
    uint64_t PauseWaitSlots(uint64_t stop);

    /**
     * \brief Jump over \p n slots of the RX-up wait (at most PauseWaitSlots()).
     * \param n the slots.
     */
    void PauseWaitJump(uint64_t n);

    /**
     * \return true if the link is steadily loaded now (a loaded jump is allowed):
     *         every lane NORMAL with no pending flag, counter or FC level, the last
     *         L + 24 slots free of anything but clean in-sequence Data frames, an
     *         unlimited drain, and the user side in step with the senders.
     */
    bool IsLoadedSteady();

    /**
     * \return the slots a loaded jump may cover for the queued and in-flight user
     *         frames, or 0 if there are none.
     */
    uint64_t LoadedWork() const;

    /**
     * \brief On a steadily loaded link, the first slot of a callback: the next
     *        TX_BEGIN / TX_END, the next delivery, or the next error receive slot.
     * \return the slot, or NEVER.
     */
    uint64_t LoadedNextEvent();

    /**
     * \brief Jump a steadily loaded link to slot \p t1 (before the next error
     *        receive slot) at a cost per frame, not per slot step.
     * \param t1 the first slot not jumped.
     */
    void LoadedJump(uint64_t t1);

    /**
     * \brief Start batched loaded mode: the lane structures' user frames (FIFO,
     *        line) become single Runs; from here on loaded jumps cost a few
     *        integer operations per packet and lane, and build no frame objects.
     */
    void EnterBatch();

    /**
     * \brief A loaded jump in batched mode (same results as the per-frame one).
     * \param t1 the first slot not jumped.
     */
    void BatchJump(uint64_t t1);

    /**
     * \brief End batched mode: build the buffers, lines and FIFOs exactly as the
     *        per-frame loaded jumps would have left them. No-op outside it.
     */
    void LeaveBatch();

    /**
     * \brief Hand a whole packet to the user at once (batched mode): what
     *        TakeFrame() does for each of its frames.
     * \param epIndex the receiving endpoint.
     * \param first the index of the sender's run holding its first frame.
     * \param last the index of the run holding its last frame.
     * \param out where the delivery goes.
     */
    void TakePacket(uint32_t epIndex, std::size_t first, std::size_t last,
                    std::vector<RiflDelivery>* out);

    /**
     * \brief Batched mode: the user of \p r takes what is ready before \p t1,
     *        whole packets at once; a packet whose end is not here yet waits.
     * \param r the receiving endpoint.
     * \param t1 the first slot not run.
     * \param out where deliveries go; null: frame by frame, no packet end.
     */
    void TakeRuns(uint32_t r, uint64_t t1, std::vector<RiflDelivery>* out);

    /**
     * \brief Batched mode: frames i0..i1-1 of a run pass the receiver's flags.
     * \param r the receiving endpoint.
     * \param u the run.
     * \param i0 the first frame.
     * \param i1 one past the last frame.
     */
    void ReceiveRun(uint32_t r, const Run& u, uint32_t i0, uint32_t i1);

    /**
     * \brief Take, frame by frame, the frames a batched jump left for later
     *        (the head of a packet whose end had not arrived): counters and the
     *        assembly become what the per-frame jumps would have made them.
     */
    void SettleBatch();

    /**
     * \param u a run.
     * \param i a frame of it.
     * \return the frame's tag, slots, lane and size.
     */
    FrameView ViewFrame(const Run& u, uint32_t i) const;

    /**
     * \param u a run.
     * \return the line slot of its last frame.
     */
    uint64_t RunLastSlot(const Run& u) const;

    /**
     * \param u a run.
     * \param slot a line slot.
     * \return how many of its frames are on line slots before \p slot.
     */
    uint32_t RunFramesBefore(const Run& u, uint64_t slot) const;

    /**
     * \brief Take the next segment off an endpoint's queue.
     * \param ep the endpoint.
     * \return the segment (its content state computed when tracked).
     */
    Segment PopSegment(Endpoint& ep);

    /**
     * \brief Hand the collected callbacks of a loaded jump over in the reference's
     *        order: per slot, deliveries to A, to B, then TX events of A, of B.
     */
    void FlushJumpCallbacks();

    /**
     * \param seg a segment.
     * \return its Data frame (built on first use).
     */
    const std::shared_ptr<const RiflFrame>& SegmentFrame(const Segment& seg) const;

    /**
     * \brief The shape of a segment's Data frame (RiflFrame::MakeData()), unbuilt.
     * \param payload a packet's bytes.
     * \param byteOffset the offset of a segment in it (a multiple of the payload size).
     * \param nBytes set to the segment's user bytes.
     * \return its Meta code: MIDDLE but for the packet's last segment, LAST_FULL or
     *         LAST_PARTIAL.
     */
    RiflFrame::Meta SegmentShape(const RiflPayload& payload, uint32_t byteOffset,
                                 uint32_t* nBytes) const
    {
        const uint64_t rest = payload.GetSize() - uint64_t{byteOffset};
        if (rest > m_payloadBytes)
        {
            *nBytes = m_payloadBytes;
            return RiflFrame::Meta::MIDDLE;
        }
        *nBytes = static_cast<uint32_t>(rest);
        return rest == m_payloadBytes ? RiflFrame::Meta::LAST_FULL : RiflFrame::Meta::LAST_PARTIAL;
    }

    /**
     * \param payload a packet's bytes.
     * \param byteOffset the offset of a segment in it (a multiple of the payload size).
     * \return the segment's Data frame, built.
     */
    std::shared_ptr<const RiflFrame> BuildUserFrame(const RiflPayload& payload,
                                                    uint32_t byteOffset) const;

    /**
     * \param f a frame on the line.
     * \return the frame it carries (built when it is an unbuilt user frame).
     */
    std::shared_ptr<const RiflFrame> LineContent(const LineFrame& f) const;

    /**
     * \param f a frame on the line.
     * \return its Meta code (without building an unbuilt user frame).
     */
    RiflFrame::Meta LineMeta(const LineFrame& f) const
    {
        uint32_t n = 0;
        return f.frame ? f.frame->GetMeta() : SegmentShape(*f.payload, f.tag.byteOffset, &n);
    }

    /**
     * \brief The look-up tables of the scrambler arithmetic, which depend only on the
     *        frame size and the Frame ID width: built once per such pair and shared by
     *        every engine of that configuration (a fabric of thousands of links holds one
     *        copy, about 290 KB for 1024-bit frames, instead of one per link).
     */
    struct Tables
    {
        std::array<Matrix, 64> pow2;                        //!< M^(2^k)
        std::array<std::array<uint64_t, 256>, 5> stepTable; //!< M v by bytes of v
        std::array<uint64_t, 4> metaTable;                  //!< c() of the Meta bits alone
        std::vector<std::array<uint64_t, 256>> byteTable;   //!< c() per payload byte, value
    };

    /**
     * \param frameSize the frame size (bits).
     * \param fid the Frame ID width.
     * \return the shared tables of that pair (built on first use, then kept).
     */
    static std::shared_ptr<const Tables> GetTables(uint32_t frameSize, uint32_t fid);

    /**
     * \brief Track the TX scrambler states from the first slot (a sync-loss process or
     *        the self-check needs them) and fetch the tables that step them (only such
     *        an engine builds or holds them).
     */
    void TrackScrambler();

    /**
     * \brief Build the tables of one pair: M and its powers, the step table, and c() per
     *        Meta value and per payload byte position and value.
     * \param frameSize the frame size (bits).
     * \param fid the Frame ID width.
     * \return the tables.
     */
    static std::shared_ptr<const Tables> BuildTables(uint32_t frameSize, uint32_t fid);

    /**
     * \param f a frame.
     * \return c(f) by table look-up (a Data frame; else ContentState()).
     */
    uint64_t DataContentState(const RiflFrame& f) const;

    /**
     * \param f a frame.
     * \return c(f): the scrambler state after f from state 0.
     */
    static uint64_t ContentState(const RiflFrame& f);

    /**
     * \param m a matrix.
     * \param v a state.
     * \return m v.
     */
    static uint64_t Apply(const Matrix& m, uint64_t v);

    /**
     * \param v a state.
     * \return M v (one fill frame), by table look-up.
     */
    uint64_t StepState(uint64_t v) const;

    /**
     * \param a a matrix.
     * \param b a matrix.
     * \return a b.
     */
    static Matrix Multiply(const Matrix& a, const Matrix& b);

    /**
     * \param n an exponent.
     * \return M^n.
     */
    Matrix Power(uint64_t n) const;

    /**
     * \brief Report an event (slot = current slot).
     * \param type the type.
     * \param endpoint the endpoint.
     * \param lane the lane.
     * \param packetId the packet.
     * \param value the value.
     * \param value2 the second value.
     */
    void Emit(RiflLinkEventType type, uint32_t endpoint, uint32_t lane, uint64_t packetId,
              int64_t value = 0, int64_t value2 = 0);

    /**
     * \brief Check an endpoint and lane index.
     * \param endpoint the endpoint.
     * \param lane the lane.
     */
    void CheckIndex(uint32_t endpoint, uint32_t lane) const;

    /// \brief Note whether any lane has an error or sync-loss process (JumpHorizon()).
    void NoteProcesses();

    /**
     * \brief Division and remainder by the lane count, as a shift and a mask when it
     *        is a power of two (1, 2, 4, 8, 16: every common bonding): the batched
     *        paths divide by it several times per packet and lane.
     */
    struct LaneDivider
    {
        uint32_t n{1};     //!< the lane count
        uint32_t shift{0}; //!< log2(n) when n is a power of two
        bool pow2{true};   //!< n is a power of two

        /**
         * \param x a count of frames.
         * \return x / n.
         */
        uint64_t Div(uint64_t x) const
        {
            return pow2 ? x >> shift : x / n;
        }

        /**
         * \param x a count of frames.
         * \return x % n.
         */
        uint32_t Mod(uint64_t x) const
        {
            return static_cast<uint32_t>(pow2 ? x & (n - 1) : x % n);
        }
    };

    RiflLinkConfig m_config;                       //!< the configuration
    LaneDivider m_laneDiv;                         //!< division by the lane count
    bool m_anyProcess{false};                      //!< some lane has an error or sync-loss process
    bool m_anySyncLoss{false};                     //!< some lane has a sync-loss process
    uint64_t m_errorHorizon{0};      //!< JumpHorizon(): min over lanes of next error + delay
    bool m_errorHorizonValid{false}; //!< m_errorHorizon is up to date (processes set since)
    uint64_t m_errorHeadChanges{0};  //!< sum of the processes' GetHeadChanges() then
    uint64_t m_anyHeadChanges{0};    //!< BitErrorProcess::GetAnyHeadChanges() at that sum
    uint32_t m_fid;                                //!< Frame ID width
    uint32_t m_d;                                  //!< D
    uint32_t m_lineDelay;                          //!< L
    std::vector<uint32_t> m_laneDelay;             //!< per lane: L + its skew
    uint32_t m_maxDelay{0};                        //!< L + the largest skew
    uint32_t m_rxUpSlots;                          //!< RX-up wait
    std::array<uint32_t, 2> m_fifoDepth{};         //!< FC FIFO depth of A and B
    std::array<double, 2> m_drainRate{};           //!< drain rate of A and B
    uint32_t m_thrOn;                              //!< Thr_ON
    uint32_t m_thrOff;                             //!< Thr_OFF
    uint64_t m_slot{0};                            //!< the slot the next Step() runs
    uint32_t m_slowEp{2};                          //!< the slower clock's endpoint (2 = none)
    bool m_compensated{false};                     //!< the faster endpoint compensates
    uint64_t m_nextSkip{0};                        //!< the next skip slot of the slower clock
    std::array<Endpoint, 2> m_ep;                  //!< A and B
    std::shared_ptr<const RiflFrame> m_fill;       //!< a fill frame
    uint32_t m_payloadBytes{0};                    //!< user bytes of a full Data frame
    std::shared_ptr<const RiflFrame> m_none;       //!< always null (a reference to no frame)
    std::shared_ptr<const RiflPayload> m_noPayload; //!< always null (a reference to no payload)
    std::shared_ptr<const RiflFrame> m_idle;       //!< an Idle frame
    std::shared_ptr<const RiflFrame> m_pauseReq;   //!< a Pause Request
    std::shared_ptr<const RiflFrame> m_retransReq; //!< a Re-transmit Request
    std::shared_ptr<const RiflFrame> m_fcPause;    //!< an FC_ON notification
    std::shared_ptr<const RiflFrame> m_fcResume;   //!< an FC_OFF notification
    std::vector<Segment> m_taken;                  //!< segments taken in this slot (reused)
    uint64_t m_cIdle{0};                           //!< c(Idle)
    uint64_t m_cPauseReq{0};                       //!< c(Pause Request)
    uint64_t m_cRetransReq{0};                     //!< c(Re-transmit Request)
    uint64_t m_cFcPause{0};                        //!< c(FC_ON)
    uint64_t m_cFcResume{0};                       //!< c(FC_OFF)
    /// the shared look-up tables (TrackScrambler() fetches them; null until then)
    std::shared_ptr<const Tables> m_tables;
    uint64_t m_quietSlots{0};                      //!< consecutive steps without activity
    bool m_activity{false};                        //!< the current step had activity
    bool m_unsteady{false};     //!< the current step had activity other than steady user data
    uint64_t m_steadySlots{0};  //!< consecutive steps (and loaded jumps) without unsteadiness
    uint64_t m_loadedJumped{0}; //!< slots jumped with traffic (loaded run mode)
    uint64_t m_batchedSlots{0}; //!< slots jumped in batched loaded mode
    bool m_loadedSteady{false}; //!< IsLoadedSteady() held and only loaded jumps ran since
    std::array<std::vector<Received>, 2> m_jumpReceived;       //!< loaded jump: frames received
    std::array<std::vector<RiflLinkEvent>, 2> m_jumpTxEvents;  //!< loaded jump: TX events
    std::array<std::vector<RiflDelivery>, 2> m_jumpDeliveries; //!< loaded jump: deliveries
    std::vector<FifoEntry> m_jumpOld;                          //!< loaded jump: FIFO taken
    bool m_selfCheck{false};                                   //!< self-check mode
    bool m_trackScrambler{false}; //!< track TX scrambler states (self-check, sync loss)
    bool m_started{false};        //!< a packet was offered or a slot run
    bool m_batch{false};          //!< batched loaded mode (EnterBatch())
    uint32_t m_nextEndpoint{2};   //!< NextEventEndpoint()
    bool m_promisedNow{false};    //!< NextEventSlot() gave the current slot (stepped mode)
    uint64_t m_arrivalCount{0};   //!< packets in the endpoints' arrival lists
    bool m_lean{false};           //!< SetLeanDeliveries()
    /// SetTxEventWakes(): per endpoint, TX_BEGIN and TX_END count for NextEventSlot()
    std::array<std::array<bool, 2>, 2> m_txWake{{{true, true}, {true, true}}};
    uint64_t m_batchStart{0};             //!< the slot the batch started at
    uint64_t m_batchSteady{0};            //!< slots whose AdvanceSteady() is pending
    std::array<bool, 2> m_batchLine{};    //!< per sender: pre-batch frames on the line
    std::array<RunQueue, 2> m_runs{};     //!< per sender: batched runs
    std::vector<uint64_t> m_packetSlots;  //!< TakePacket(): line slot of each frame (reused)

    /// A batched user frame LeaveBatch() puts back on its lane.
    struct Slotted
    {
        uint64_t slot;    //!< its line slot
        const Run* run;   //!< its run
        uint32_t frame;   //!< its place in the run
        RiflFrameTag tag; //!< its tag, from the view taken once
    };

    /// LeaveBatch(): per lane, the user frames of the window it rebuilds (reused)
    std::vector<std::vector<Slotted>> m_leaveLanes;
    std::vector<Segment> m_jumpSegments;  //!< loaded jump: dealt
    std::array<Cursor, 2> m_receivedTo{}; //!< per sender: received up to
    std::array<Cursor, 2> m_takenTo{};    //!< per sender: taken up to
    std::array<std::array<std::array<uint64_t, 2>, 16>, 2> m_recent{}; //!< per RX lane: last two
                                                                       //!< user line slots
    uint64_t m_stepped{0};                                             //!< slots stepped
    uint64_t m_jumped{0};                                              //!< slots jumped
    uint64_t m_pauseWaitJumped{0}; //!< slots of RX-up waits jumped (part of m_jumped)
    uint64_t m_materialised{0};                                        //!< frames materialised
    bool m_advancing{false};        //!< inside AdvanceTo() (RequireNotAdvancing())
    uint32_t m_dormant{0};          //!< sparse stepping: bit k set = lane k is dormant
    uint32_t m_dormantCount{0};     //!< the number of dormant lanes
    uint64_t m_dormantFrom{0};      //!< sparse stepping: the first slot the lanes missed
    uint64_t m_sparseRetry{0};      //!< sparse stepping: the next slot an entry is tried
    uint64_t m_dormantLaneSlots{0}; //!< GetDormantLaneSlots()
    DeliveryCallback m_deliveryCb;                                     //!< delivery callback
    EventCallback m_eventCb;                                           //!< event callback
    std::shared_ptr<const StartupTemplate> m_template; //!< the template followed, if any
    bool m_useTemplates{true};                         //!< SetStartupTemplates()
    bool m_jumps{true};                                //!< SetJumps()
    bool m_templateChecked{false};                     //!< InTemplate() decided
    uint64_t m_virtualSlot{0};         //!< following a template: the slot run next
    std::size_t m_templateEvents{0};   //!< following a template: its events emitted
    std::size_t m_muteEvents{0};       //!< LeaveTemplate(): events not to emit again
    uint64_t m_templatedSlots{0};      //!< GetTemplatedSlots()
};

} // namespace ns3

#endif /* RIFL_FAST_ENGINE_H */
