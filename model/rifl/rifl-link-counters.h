/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_LINK_COUNTERS_H
#define RIFL_LINK_COUNTERS_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-protocol
 * \brief Counters of one RIFL endpoint: what its TX sent and what its RX received.
 *
 * TX counters are summed over the endpoint's lanes for the outgoing direction,
 * RX counters over its lanes for the incoming direction. Every RIFL link engine
 * (reference and fast) fills the same fields with the same meaning, so two
 * engines run on the same inputs must produce equal counters (operator==);
 * Diff() names the fields that differ.
 */
struct RiflEndpointCounters
{
    // TX (summed over lanes)
    uint64_t newUserFrames{0};       //!< user Data frames sent for the first time
    uint64_t fillFrames{0};          //!< Meta-00 fill frames sent
    uint64_t fcPauseSent{0};         //!< FC_ON notifications sent
    uint64_t fcResumeSent{0};        //!< FC_OFF notifications sent
    uint64_t replayedFrames{0};      //!< frames sent again in RETRANS
    uint64_t idleSent{0};            //!< Idle frames sent
    uint64_t pauseRequestsSent{0};   //!< Pause Requests sent
    uint64_t retransRequestsSent{0}; //!< Re-transmit Requests sent
    uint64_t replays{0};             //!< replays started (RETRANS slots with c = 0)
    uint64_t slotsLost{0};           //!< slots after link-up without a new Data frame (all lanes)
    uint64_t userStallSlots{0};      //!< slots with user data waiting and the group not ready
    std::array<uint64_t, 6> stateSlots{}; //!< lane-slots spent in each RiflTxState (by value)
    uint64_t clockSkipSlots{0};    //!< grid slots this (slower) clock did not have (spec 6.1)
    uint64_t compensationSlots{0}; //!< slots the compensation signal was active (faster side)
    uint64_t compensationIdles{0}; //!< compensation Idle frames sent (all lanes; NORMAL only)
    // RX (summed over lanes)
    uint64_t framesReceived{0};  //!< frames arrived (any state)
    uint64_t lineErrorFrames{0}; //!< frames whose line bits were changed (errors, sync loss)
    /// Frames that failed the check while RX up: the frames hit on the line and every later
    /// frame that fails because exp_id was rolled back (about a round trip of frames per
    /// line error), so several times lineErrorFrames; the line hits are lineErrorFrames.
    uint64_t errorsDetected{0};
    uint64_t controlFrameErrors{0};   //!< of errorsDetected: Control frames
    uint64_t badSyncwords{0};         //!< of errorsDetected: illegal Syncwords
    uint64_t dataFramesDelivered{0};  //!< Data frames accepted in sequence (incl. fill, FC)
    uint64_t duplicatesDropped{0};    //!< Data frames passed with exp_id != thr (dropped)
    uint64_t undetectedErrors{0};     //!< changed frames that passed the check
    uint64_t contentMismatches{0};    //!< delivered user frames whose bytes differ from sent
    uint64_t duplicatesDelivered{0};  //!< user frames delivered again (ground truth)
    uint64_t outOfOrderDeliveries{0}; //!< user frames delivered ahead of a missing one
    /// non-user data frames accepted in sequence while an earlier user frame is missing
    /// (spec 10.2 / 11.8 resynchronisation ahead; RiflIsResyncAhead())
    uint64_t resyncsAhead{0};
    /// the peer's flow-control notifications never acted on (spec 10.2 / 11.8: skipped by
    /// a resynchronisation on a frame D newer; a skipped resume leaves this side's TX lane
    /// paused for good; RiflCheckFcSequence())
    uint64_t fcNotificationsSkipped{0};
    /// the peer's flow-control notifications acted on a second time (a frame D older
    /// accepted in sequence, spec 10.3; a repeated pause after its resume leaves this
    /// side's TX lane paused for good; RiflCheckFcSequence())
    uint64_t fcNotificationsRepeated{0};
    uint64_t fcPauseReceived{0};  //!< FC_ON notifications acted on
    uint64_t fcResumeReceived{0}; //!< FC_OFF notifications acted on
    uint64_t fcFifoDrops{0};      //!< user frames dropped at a full FC FIFO
    uint64_t maxFcOccupancy{0};   //!< largest FC FIFO occupancy seen (any lane)
    uint64_t alignmentLosses{0};  //!< aligner lock losses
    uint64_t bytesDelivered{0};   //!< user bytes handed to the user
    uint64_t packetsDelivered{0}; //!< packets handed to the user
    /// User packets whose last frame never reached the user (ground truth): skipped by an
    /// out-of-order delivery (spec 10.2 / 11.8) or dropped at a full FC FIFO. Each merges
    /// into the next packet handed to the user, so it is never delivered by itself.
    uint64_t packetEndsLost{0};

    /**
     * \param o other counters.
     * \return true if every field is equal.
     */
    bool operator==(const RiflEndpointCounters& o) const;

    /**
     * \param o other counters.
     * \return true if any field differs.
     */
    bool operator!=(const RiflEndpointCounters& o) const;

    /**
     * \return every field as "name=value", space separated, in declaration
     *         order; stateSlots as stateSlots[i]=value for i = 0..5.
     */
    std::string ToString() const;

    /**
     * \param other other counters.
     * \return the names of the fields that differ (stateSlots elements as
     *         "stateSlots[i]"), in declaration order; empty if equal.
     */
    std::vector<std::string> Diff(const RiflEndpointCounters& other) const;
};

} // namespace ns3

#endif /* RIFL_LINK_COUNTERS_H */
