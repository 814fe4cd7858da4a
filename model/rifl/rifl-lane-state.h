/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_LANE_STATE_H
#define RIFL_LANE_STATE_H

#include "ns3/assert.h"
#include "ns3/rifl-frame.h"
#include "ns3/rifl-payload.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-protocol
 * \brief TX states of the RTL's priority encoder, with the RTL's encodings (§3.1).
 */
enum class RiflTxState : uint8_t
{
    INIT = 0,         //!< filling the retransmission buffer; sends Pause Requests
    SEND_PAUSE = 1,   //!< local RX not up; sends Pause Requests
    PAUSE = 2,        //!< remote Pause Request flag; sends Idle
    RETRANS = 3,      //!< replaying the buffer (remote Re-transmit flag or counter != 0)
    SEND_RETRANS = 4, //!< local Frame Error; sends Re-transmit Requests
    NORMAL = 5        //!< data, FC notifications or Idle (§3.2)
};

/**
 * \ingroup rifl-protocol
 * \param s a TX state.
 * \return its name ("INIT", "SEND_PAUSE", ...).
 */
std::string RiflTxStateName(RiflTxState s);

/**
 * \ingroup rifl-protocol
 * \brief What a lane's TX puts on the line in one slot.
 */
enum class RiflTxFrame : uint8_t
{
    PAUSE_REQUEST,      //!< Control frame, key 0x0010 (INIT, SEND_PAUSE)
    IDLE,               //!< Control frame, key 0x0001, not stored, no Frame ID
    RETRANSMIT_REQUEST, //!< Control frame, key 0x1000
    REPLAY,             //!< the oldest buffered frame, rotated back in (RETRANS, even c)
    FC_PAUSE,           //!< FC_ON notification Data frame (stored, numbered)
    FC_RESUME,          //!< FC_OFF notification Data frame (stored, numbered)
    NEW_DATA,           //!< a user Data frame or a Meta-00 fill frame (stored, numbered)
    COMPENSATION_IDLE   //!< clock-compensation Idle (§3.2 action 1, §6.1): not stored,
                        //!< no Frame ID, does not advance the resume wait
};

/**
 * \ingroup rifl-protocol
 * \brief Ground truth carried beside a frame (never used by the protocol rules).
 *
 * The engine uses it to count what the protocol cannot see: duplicate or
 * out-of-order deliveries and undetected corruption.
 */
struct RiflFrameTag
{
    bool user{false};       //!< carries user data (Meta != 00)
    uint64_t packetId{0};   //!< the user packet
    uint32_t byteOffset{0}; //!< offset of the first payload byte in the packet
    /// per-lane sequence number of user frames, from 0; for a non-user data frame
    /// (fill or flow-control notification) the user frames its lane sent before it
    uint64_t laneSeq{0};
    uint64_t laneEopSeq{0}; //!< packet-ending user frames this lane sent before this one
    uint64_t acceptSlot{0}; //!< slot the user data was accepted (first line slot)
    uint64_t groupSeq{0};   //!< endpoint-wide user-segment number (fast engine only)
    /// flow-control notifications its lane sent before it (for a notification: its own
    /// number on the lane, from 0)
    uint64_t fcSeq{0};
    bool fcNotification{false}; //!< an FC pause or resume notification (as sent)

    /**
     * \brief The tag of a non-user data frame (fill or flow-control notification).
     * \param laneSeq user frames its lane sent before it.
     * \param laneEopSeq packet-ending user frames its lane sent before it.
     * \param fcSeq flow-control notifications its lane sent before it.
     * \param fcNotification the frame is an FC notification.
     * \return the tag (user = false).
     */
    static RiflFrameTag NonUser(uint64_t laneSeq, uint64_t laneEopSeq, uint64_t fcSeq,
                                bool fcNotification = false)
    {
        RiflFrameTag t;
        t.laneSeq = laneSeq;
        t.laneEopSeq = laneEopSeq;
        t.fcSeq = fcSeq;
        t.fcNotification = fcNotification;
        return t;
    }
};

/**
 * \ingroup rifl-protocol
 * \brief What the ground truth says of the flow-control notifications around one data
 *        frame the receiver accepted in sequence (RiflCheckFcSequence()).
 */
struct RiflFcSequenceCheck
{
    /// notifications of the peer's lane sent before this frame that this receiver never
    /// acted on: skipped by a resynchronisation on a frame D newer (spec 10.2 / 11.8)
    uint64_t skipped{0};
    /// the frame is a notification this receiver already acted on (a frame D older
    /// accepted in sequence, as after the replay-tail hazard of spec 10.3)
    bool repeated{false};
};

/**
 * \ingroup rifl-protocol
 * \brief Spec 10.2 / 10.3 / 11.8 for flow-control notifications: compare an accepted data
 *        frame's tag with the next notification the receiving lane expects.
 *
 * A notification is a Data frame, so a resynchronisation on a frame D newer can skip it
 * like a user frame, and a frame D older accepted in sequence can repeat it. Unlike a
 * user frame, nothing reaches the user: a skipped resume leaves the receiver's TX lane
 * paused for good (and its bonded group with it), a repeated pause after its resume
 * does the same. This check makes both visible at once.
 *
 * \param tag the accepted frame's tag (any data frame: user, fill or notification).
 * \param rxNextFcSeq the lane's next notification expected (advanced here; never moves
 *        back, so each skip and each repeat is reported once).
 * \return the skipped count and whether the frame repeats a notification.
 */
inline RiflFcSequenceCheck
RiflCheckFcSequence(const RiflFrameTag& tag, uint64_t& rxNextFcSeq)
{
    RiflFcSequenceCheck r;
    if (tag.fcSeq > rxNextFcSeq)
    {
        r.skipped = tag.fcSeq - rxNextFcSeq;
        rxNextFcSeq = tag.fcSeq;
    }
    if (tag.fcNotification)
    {
        if (tag.fcSeq < rxNextFcSeq)
        {
            r.repeated = true;
        }
        else
        {
            rxNextFcSeq = tag.fcSeq + 1;
        }
    }
    return r;
}

/**
 * \ingroup rifl-protocol
 * \brief Spec 10.2 / 11.8 for a non-user data frame (fill or flow-control
 *        notification) the receiver accepted in sequence: whether it was sent after
 *        user frames the receiver has not accepted, i.e. the receiver has
 *        resynchronised on a frame D newer (or accepted one after frames D newer).
 *
 * The missing user frames may still arrive in their places from a later replay;
 * if they do not, the next user frame accepted reports them as skipped
 * (outOfOrderDeliveries). Without this check a hazard followed by no later user
 * frame on the lane (a packet's tail skipped, nothing sent after it) would leave no
 * trace. Reported once per value of \p rxNextSeq.
 *
 * \param tag the accepted frame's tag.
 * \param rxNextSeq the lane's next user frame expected.
 * \param reportedAt the lane's rxNextSeq at its last report (updated on a report).
 * \return true to report it (count resyncsAhead, emit RESYNC_AHEAD).
 */
inline bool
RiflIsResyncAhead(const RiflFrameTag& tag, uint64_t rxNextSeq, uint64_t& reportedAt)
{
    if (tag.user || tag.laneSeq <= rxNextSeq || reportedAt == rxNextSeq)
    {
        return false;
    }
    reportedAt = rxNextSeq;
    return true;
}

/**
 * \ingroup rifl-protocol
 * \brief One retransmission buffer entry: the logical frame and its tag.
 */
struct RiflBufferEntry
{
    /// The frame content (Syncword 01 implicit, CRC recomputed on send); shared. Null
    /// only for a user data frame whose bytes are \c payload's from \c tag.byteOffset
    /// (the fast engine builds such a frame when it is replayed).
    std::shared_ptr<const RiflFrame> frame;
    RiflFrameTag tag; //!< ground truth
    /// The packet a null \c frame's bytes come from; else unused.
    std::shared_ptr<const RiflPayload> payload;
};

/**
 * \ingroup rifl-protocol
 * \brief The protocol state of one lane of one endpoint: its TX half (priority
 *        encoder, replay and resume counters, retransmission buffer, Frame ID)
 *        and the RX half that receives the peer's lane (aligner, key counters,
 *        expected ID, delivery threshold, Frame Error).
 *
 * The methods are the rules of rifl-protocol.md §3 and §11, one call per slot
 * or per received frame; the reference engine moves bits and calls them.
 */
class RiflLaneState
{
  public:
    /// Verdict of the verification rule for one received frame (§11.4, §11.5).
    enum class Verdict : uint8_t
    {
        DELIVER,    //!< Data frame in sequence (exp_id == thr): goes to the user side
        DUPLICATE,  //!< Data frame that passed with exp_id != thr: dropped
        CONTROL_OK, //!< Control frame that passed
        FAILED      //!< check failed: Frame Error set, exp_id = thr - 16
    };

    /// What the key counters see in a received frame (§11.6, §11.7).
    enum class KeyClass : uint8_t
    {
        PAUSE_REQUEST,      //!< descrambled key 0x0010
        RETRANSMIT_REQUEST, //!< descrambled key 0x1000
        OTHER_CONTROL,      //!< Idle or unknown key: clears both request counters
        REGULAR             //!< Data frame or illegal Syncword: counts toward the 16-reset
    };

    /**
     * \brief Make the power-on state.
     * \param frameIdWidth FID, 1..12 (D = 2^FID).
     * \param replaySlots slots of one replay, 2D + tail (> 2D).
     * \param frameSize S, for the D invalid frames the buffer starts with.
     */
    RiflLaneState(uint32_t frameIdWidth, uint32_t replaySlots, uint32_t frameSize);

    // ---------------------------------------------------------------- TX

    /**
     * \brief Evaluate the priority encoder for this slot (§3.1) and store the state.
     *
     * Also applies the resume-wait rule: the counter is cleared in every slot
     * in which the local Frame Error is high (§11.3).
     * \param groupRxUp the AND of the RX-up flags of the bonding group.
     * \return the state held during this slot.
     */
    RiflTxState SelectState(bool groupRxUp);

    /**
     * \brief What the current state sends (§3.2, §3.5), without changing anything.
     * \param fcOccupancy the local FC FIFO occupancy (frames).
     * \param thrOn Thr_ON.
     * \param thrOff Thr_OFF.
     * \param compensate the clock-compensation signal is active in this slot (§6.1);
     *        in NORMAL it outranks every other action, in the other states it has no effect.
     * \return the frame kind.
     */
    RiflTxFrame PlanFrame(uint32_t fcOccupancy, uint32_t thrOn, uint32_t thrOff,
                          bool compensate = false) const;

    /**
     * \brief The user-readiness rule of §3.2 for a planned frame.
     * \param planned the result of PlanFrame() for this slot.
     * \return true if a user segment may go out in this slot.
     */
    bool IsUserReady(RiflTxFrame planned) const;

    /**
     * \brief A lower bound on the slots before IsUserReady() can hold, from counters
     *        that advance by at most one per slot: the start-up buffer fill and
     *        rollback, the replay under way and the resume wait.
     * \return 0 when nothing holds it back by count.
     */
    uint32_t GetUserReadyWait() const;

    /**
     * \brief Apply the counters of a frame sent in this slot.
     *
     * INIT counts buffer-fill slots while the group is aligned; RETRANS steps the
     * replay counter (wrapping after the tail); resume-wait Idles advance the
     * resume wait; stored frames consume a Frame ID; NEW_DATA counts toward the
     * start-up rollback counter; FC notifications record the notified level.
     * The buffer itself is handled by RotateBuffer() and PushBuffer().
     * \param kind the frame sent (PlanFrame()'s value).
     * \param groupAligned the AND of the aligned flags of the group (reset release).
     * \return the TX Frame ID the frame carries (before any increment).
     */
    uint32_t CommitFrame(RiflTxFrame kind, bool groupAligned);

    /**
     * \brief Take the oldest buffered frame and shift it back in at the head (replay).
     * \return the entry replayed.
     */
    const RiflBufferEntry& RotateBuffer();

    /**
     * \brief Shift a newly sent Data frame into the buffer, dropping the oldest.
     * \param entry the frame.
     */
    void PushBuffer(const RiflBufferEntry& entry);

    /**
     * \brief Shift a newly sent Data frame into the buffer, dropping the oldest (moved in).
     * \param entry the frame.
     */
    void PushBuffer(RiflBufferEntry&& entry);

    /// \return the state held in the current slot (after SelectState()).
    RiflTxState GetTxState() const;
    /// \return the TX Frame ID counter (mod D).
    uint32_t GetTxFrameId() const;
    /// \return the replay counter c (0 .. 2D + tail - 1).
    uint32_t GetReplayCounter() const;
    /// \return the resume-wait counter (D = finished).
    uint32_t GetResumeWait() const;
    /// \return true once the buffer holds its D invalid frames.
    bool IsInitDone() const;
    /// \return true once D Data frames have been sent in NORMAL since reset.
    bool IsRollbackDone() const;
    /**
     * \brief One entry of the retransmission buffer.
     * \param age 0 for the oldest entry (the next one replayed), D - 1 for the newest.
     * \return the entry (its frame may be null: see RiflBufferEntry).
     */
    const RiflBufferEntry& GetBufferEntry(uint32_t age) const;

    /**
     * \brief Fast-forward a steady NORMAL lane (fast engine's run mode).
     *
     * Equivalent to \p txFrames slots in NORMAL each sending one new Data
     * frame (rollback done, no FC change; the buffer is not touched) and
     * \p rxFrames clean in-sequence Data frames received (aligned, RX up,
     * no Frame Error, key monitor saturated at 16 regular frames).
     * \param txFrames frames sent.
     * \param rxFrames frames received.
     */
    void AdvanceSteady(uint64_t txFrames, uint64_t rxFrames);

    /**
     * \brief The frames this lane's RX can receive in the RX-up wait before one
     *        changes more than its counters.
     *
     * In that wait (aligned, no illegal header in the window, RX not up) a legal Pause
     * Request, with the Pause counter saturated and the other two at 0, only advances
     * the aligner window and the RX-up counter; the frame that brings RX up is not
     * counted.
     * \param rxUpSlots the RX-up wait (RiflLinkConfig::GetRxUpSlots()).
     * \return the frames, or 0 when the lane is not in that state.
     */
    uint64_t GetPauseWaitFrames(uint32_t rxUpSlots) const
    {
        if (!m_aligned || m_rxUp || m_windowBad != 0 || m_pauseCount < KEYS_IN_A_ROW
            || m_retransCount != 0 || m_regularCount != 0 || m_rxUpCount + 1 >= rxUpSlots)
        {
            return 0;
        }
        return rxUpSlots - m_rxUpCount - 1;
    }

    /**
     * \brief Fast-forward a lane through \p rxFrames legal Pause Requests of its RX-up
     *        wait (at most GetPauseWaitFrames()), as OnHeader(true) and
     *        OnKey(PAUSE_REQUEST) would.
     * \param rxFrames frames received.
     */
    void AdvancePauseWait(uint64_t rxFrames)
    {
        m_windowCount = static_cast<uint32_t>((m_windowCount + rxFrames) % ALIGN_WINDOW);
        m_rxUpCount += static_cast<uint32_t>(rxFrames);
    }

    // ---------------------------------------------------------------- RX

    /**
     * \brief Feed one received header to the aligner and the RX-up counter (§3.4).
     *
     * Lock: a 16-frame window with 16 legal Syncwords. Loss: 2 illegal Syncwords
     * in one window while locked. An illegal header while unlocked restarts the
     * window (bit slide). RX up: rxUpSlots consecutive aligned frames; dropped
     * at once with the lock.
     * \param legalSyncword the frame's Syncword is 01 or 10.
     * \param rxUpSlots the RX-up wait in slots.
     */
    void OnHeader(bool legalSyncword, uint32_t rxUpSlots);

    /**
     * \brief Update the 8-in-a-row key counters and the 16-regular reset (§11.6, §11.7).
     * \param k what the frame looks like to the key monitor.
     */
    void OnKey(KeyClass k);

    /**
     * \brief The verification rule for one frame received while RX is up (§11.4, §11.5).
     * \param passed the Verification Code matched exp_id (legal Syncword).
     * \param isData the frame is a Data frame.
     * \return the verdict.
     */
    Verdict OnCheck(bool passed, bool isData);

    /**
     * \brief OnHeader(true, *), OnKey(KeyClass::REGULAR) and OnCheck(true, true) at once,
     *        for a legal Data frame carrying \p txId, when their verdict is DELIVER.
     *
     * That is the case when the receiver is aligned and up and exp_id = thr = \p txId:
     * the three calls then change only the aligner window, the key counters and
     * exp_id/thr, as done here (while aligned, fewer than two bad headers are in the
     * window, so the lock holds; RX up stays up). In any other case nothing changes.
     * RX up is taken to have been reached with the RX-up wait of the earlier OnHeader()
     * calls (the engines pass the same wait throughout).
     * \param txId the Frame ID the frame carries (it passes the check iff = exp_id).
     * \return true if the frame was delivered in sequence (state updated).
     */
    bool TryDeliverInSequence(uint32_t txId);

    /**
     * \brief Set or clear the remote FC pause (an FC notification delivered in sequence).
     * \param pause true for FC_ON, false for FC_OFF.
     */
    void SetRemoteFcPause(bool pause);

    /// \return the aligner's lock.
    bool IsAligned() const;
    /// \return RX up (aligned for RxUpSlots slots).
    bool IsRxUp() const;
    /// \return the expected Frame ID exp_id (mod D).
    uint32_t GetExpectedId() const;
    /// \return the delivery threshold thr (mod D).
    uint32_t GetThreshold() const;
    /// \return the local Frame Error flag.
    bool GetFrameError() const;
    /// \return the Pause Request flag (8 in a row).
    bool GetPauseFlag() const;
    /// \return the Re-transmit Request flag (8 in a row).
    bool GetRetransmitFlag() const;
    /// \return the remote FC pause.
    bool GetRemoteFcPause() const;
    /// \return the local FC level last notified to the peer (true after FC_ON).
    bool GetFcNotified() const;
    /// \return the consecutive non-request frames seen by the key monitor (saturates at 16).
    uint32_t GetRegularCount() const;
    /// \return the aligner's position in its current 16-frame window.
    uint32_t GetAlignWindowCount() const;
    /// \return the illegal headers in the aligner's current window.
    uint32_t GetAlignWindowBad() const;
    /// \return the number of times the aligner lost its lock.
    uint64_t GetAlignmentLosses() const;

  private:
    /// Frames in one aligner window (§3.4).
    static constexpr uint32_t ALIGN_WINDOW = 16;
    /// Illegal headers in one window that break the lock (§3.4, §10.5).
    static constexpr uint32_t ALIGN_BAD_LIMIT = 2;
    /// Keys in a row that raise a request flag (§3.4).
    static constexpr uint32_t KEYS_IN_A_ROW = 8;
    /// Consecutive regular frames that clear the request counters (§11.7).
    static constexpr uint32_t REGULAR_RESET = 16;
    /// Rollback of exp_id on a failed check, and the start-up delivery threshold (§3.4).
    static constexpr uint32_t ROLLBACK = 16;

    // TX
    uint32_t m_d;                           //!< D = 2^FID
    uint32_t m_replaySlots;                 //!< 2D + tail
    RiflTxState m_state{RiflTxState::INIT}; //!< state of the current slot
    uint32_t m_initCount{0};                //!< buffer-fill slots done
    uint32_t m_txId{0};                     //!< TX Frame ID (mod D)
    uint32_t m_replay{0};                   //!< replay counter c
    uint32_t m_resumeWait;                  //!< resume-wait Idles sent (D = done)
    uint32_t m_rollback{0};                 //!< NORMAL Data frames since reset (saturates at D)
    bool m_fcNotified{false};               //!< FC_ON sent last (local FC level notified)
    std::vector<RiflBufferEntry> m_buffer;  //!< retransmission buffer: D entries in a ring
    uint32_t m_bufferHead{0};               //!< index of the oldest entry in m_buffer
    // RX
    bool m_aligned{false};         //!< aligner lock
    uint32_t m_windowCount{0};     //!< headers in the current 16-frame window
    uint32_t m_windowBad{0};       //!< illegal headers in the current window
    uint32_t m_rxUpCount{0};       //!< consecutive aligned frames (saturating)
    bool m_rxUp{false};            //!< RX up
    uint64_t m_alignmentLosses{0}; //!< lock losses
    uint32_t m_expId{0};           //!< exp_id
    uint32_t m_thr{16};            //!< delivery threshold
    bool m_err{false};             //!< Frame Error
    uint32_t m_pauseCount{0};      //!< Pause Request counter (saturates at 8)
    uint32_t m_retransCount{0};    //!< Re-transmit Request counter (saturates at 8)
    uint32_t m_regularCount{0};    //!< consecutive non-request frames (saturates at 16)
    bool m_remoteFcPause{false};   //!< peer asked us to stop user data
};

// The accessors every frame slot calls, inline.

inline RiflTxState
RiflLaneState::GetTxState() const
{
    return m_state;
}

inline bool
RiflLaneState::IsRxUp() const
{
    return m_rxUp;
}

inline bool
RiflLaneState::IsAligned() const
{
    return m_aligned;
}

inline uint32_t
RiflLaneState::GetReplayCounter() const
{
    return m_replay;
}

inline bool
RiflLaneState::IsRollbackDone() const
{
    return m_rollback >= m_d;
}

inline bool
RiflLaneState::IsUserReady(RiflTxFrame planned) const
{
    return m_state == RiflTxState::NORMAL && planned == RiflTxFrame::NEW_DATA && m_rollback >= m_d;
}

inline uint32_t
RiflLaneState::GetUserReadyWait() const
{
    // NORMAL needs the buffer filled (INIT) and, after a replay has begun, its last
    // slot (RETRANS until the counter wraps); NEW_DATA needs D resume-wait Idles; a
    // user segment needs the rollback counter at D. Each counter steps once a slot
    // at most.
    uint32_t w = m_initCount < m_d ? m_d - m_initCount : 0;
    w = std::max(w, m_rollback < m_d ? m_d - m_rollback : 0);
    w = std::max(w, m_replay != 0 ? m_replaySlots - m_replay : 0);
    return std::max(w, m_resumeWait < m_d ? m_d - m_resumeWait : 0);
}

// The per-slot rules, inline: the fast engine runs them in every stepped slot.

inline RiflTxState
RiflLaneState::SelectState(bool groupRxUp)
{
    if (m_err)
    {
        m_resumeWait = 0; // §11.3: cleared in every slot the TX sees its Frame Error
    }
    if (m_initCount < m_d)
    {
        m_state = RiflTxState::INIT;
    }
    else if (!groupRxUp)
    {
        m_state = RiflTxState::SEND_PAUSE;
    }
    else if (GetPauseFlag())
    {
        m_state = RiflTxState::PAUSE;
    }
    else if (GetRetransmitFlag() || m_replay != 0)
    {
        m_state = RiflTxState::RETRANS;
    }
    else if (m_err)
    {
        m_state = RiflTxState::SEND_RETRANS;
    }
    else
    {
        m_state = RiflTxState::NORMAL;
    }
    return m_state;
}

inline RiflTxFrame
RiflLaneState::PlanFrame(uint32_t fcOccupancy, uint32_t thrOn, uint32_t thrOff,
                         bool compensate) const
{
    switch (m_state)
    {
        case RiflTxState::INIT:
        case RiflTxState::SEND_PAUSE:
            return RiflTxFrame::PAUSE_REQUEST;
        case RiflTxState::PAUSE:
            return RiflTxFrame::IDLE;
        case RiflTxState::SEND_RETRANS:
            return RiflTxFrame::RETRANSMIT_REQUEST;
        case RiflTxState::RETRANS:
            if (m_replay < 2 * m_d && m_replay % 2 == 0)
            {
                return RiflTxFrame::REPLAY;
            }
            return m_err ? RiflTxFrame::RETRANSMIT_REQUEST : RiflTxFrame::IDLE;
        case RiflTxState::NORMAL:
            // §3.2: (1) clock compensation; (2) FC level change;
            // (3) remote FC pause or resume wait; (4) data or fill.
            if (compensate)
            {
                return RiflTxFrame::COMPENSATION_IDLE;
            }
            if (!m_fcNotified && fcOccupancy > thrOn)
            {
                return RiflTxFrame::FC_PAUSE;
            }
            if (m_fcNotified && fcOccupancy < thrOff)
            {
                return RiflTxFrame::FC_RESUME;
            }
            if (m_remoteFcPause || m_resumeWait < m_d)
            {
                return RiflTxFrame::IDLE;
            }
            return RiflTxFrame::NEW_DATA;
    }
    return RiflTxFrame::IDLE;
}

inline uint32_t
RiflLaneState::CommitFrame(RiflTxFrame kind, bool groupAligned)
{
    const uint32_t id = m_txId;
    switch (m_state)
    {
        case RiflTxState::INIT:
            if (groupAligned)
            {
                ++m_initCount; // one invalid frame shifted into the buffer per slot
            }
            break;
        case RiflTxState::RETRANS:
            if (kind == RiflTxFrame::REPLAY)
            {
                m_txId = (m_txId + 1) & (m_d - 1);
            }
            m_replay = (m_replay + 1) % m_replaySlots;
            break;
        case RiflTxState::NORMAL:
            if (kind == RiflTxFrame::COMPENSATION_IDLE)
            {
                break; // §3.2 action 1: not stored, not numbered, no resume-wait step
            }
            if (kind == RiflTxFrame::IDLE)
            {
                // A resume-wait Idle (§11.3). [INF] An Idle sent for a remote FC
                // pause while the wait runs counts as one too.
                if (m_resumeWait < m_d)
                {
                    ++m_resumeWait;
                }
            }
            else
            {
                if (kind == RiflTxFrame::FC_PAUSE)
                {
                    m_fcNotified = true;
                }
                else if (kind == RiflTxFrame::FC_RESUME)
                {
                    m_fcNotified = false;
                }
                else if (m_rollback < m_d)
                {
                    ++m_rollback;
                }
                m_txId = (m_txId + 1) & (m_d - 1);
            }
            break;
        default:
            break;
    }
    return id;
}

inline const RiflBufferEntry&
RiflLaneState::RotateBuffer()
{
    // The oldest entry becomes the newest: only the ring's head moves.
    const RiflBufferEntry& e = m_buffer[m_bufferHead];
    m_bufferHead = (m_bufferHead + 1) & (m_d - 1);
    return e;
}

inline void
RiflLaneState::PushBuffer(const RiflBufferEntry& entry)
{
    m_buffer[m_bufferHead] = entry; // replaces the oldest, which becomes the newest
    m_bufferHead = (m_bufferHead + 1) & (m_d - 1);
}

inline void
RiflLaneState::PushBuffer(RiflBufferEntry&& entry)
{
    m_buffer[m_bufferHead] = std::move(entry); // replaces the oldest, which becomes the newest
    m_bufferHead = (m_bufferHead + 1) & (m_d - 1);
}

inline bool
RiflLaneState::TryDeliverInSequence(uint32_t txId)
{
    if (!m_aligned || !m_rxUp || m_expId != m_thr || txId != m_expId)
    {
        return false;
    }
    NS_ASSERT(m_windowBad < ALIGN_BAD_LIMIT); // an aligned receiver unlocks at the limit
    // OnHeader(true): one more legal header in the window; RX up stays up.
    if (++m_windowCount == ALIGN_WINDOW)
    {
        m_windowCount = 0;
        m_windowBad = 0;
    }
    // OnKey(REGULAR).
    m_regularCount = std::min(REGULAR_RESET, m_regularCount + 1);
    if (m_regularCount >= REGULAR_RESET)
    {
        m_pauseCount = 0;
        m_retransCount = 0;
    }
    // OnCheck(true, true) with exp_id = thr: exp_id = thr - 1 is impossible (D >= 2),
    // so the Frame Error flag is left as it is; deliver and advance both.
    m_expId = (m_expId + 1) & (m_d - 1);
    m_thr = m_expId;
    return true;
}

inline bool
RiflLaneState::GetPauseFlag() const
{
    return m_pauseCount >= KEYS_IN_A_ROW;
}

inline bool
RiflLaneState::GetRetransmitFlag() const
{
    return m_retransCount >= KEYS_IN_A_ROW;
}

inline uint32_t
RiflLaneState::GetExpectedId() const
{
    return m_expId;
}

inline uint32_t
RiflLaneState::GetThreshold() const
{
    return m_thr;
}

inline bool
RiflLaneState::GetFrameError() const
{
    return m_err;
}

inline bool
RiflLaneState::GetRemoteFcPause() const
{
    return m_remoteFcPause;
}

inline bool
RiflLaneState::GetFcNotified() const
{
    return m_fcNotified;
}

inline void
RiflLaneState::SetRemoteFcPause(bool pause)
{
    m_remoteFcPause = pause;
}

} // namespace ns3

#endif /* RIFL_LANE_STATE_H */
