/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_BIT_ERROR_PROCESS_H
#define RIFL_BIT_ERROR_PROCESS_H

#include "ns3/object.h"
#include "ns3/ptr.h"

#include <atomic>
#include <cstdint>
#include <limits>
#include <vector>

namespace ns3
{

class UniformRandomVariable;

/**
 * \ingroup rifl-core
 * \brief One frame slot hit by bit errors.
 */
struct FrameErrorEvent
{
    /// Slot value meaning "no more errors".
    static constexpr uint64_t NO_MORE_ERRORS = std::numeric_limits<uint64_t>::max();

    /// The errored slot (0-based), or NO_MORE_ERRORS (UINT64_MAX).
    uint64_t slot{NO_MORE_ERRORS};
    /// Distinct hardware bit indices within the frame, 0..frameBits-1, ascending.
    std::vector<uint32_t> bits;
};

/**
 * \ingroup rifl-core
 * \brief A stream of errored frame slots: "slots to the next corrupted frame" plus
 *        the bit pattern, for one (direction, lane).
 *
 * The consumer reads events with Peek() and Pop(). The event sequence is a pure
 * function of the seed, the stream numbers (AssignStreams()) and the attributes:
 * it does not depend on how or when the consumer queries (events are generated
 * lazily, in order, from one RNG stream), so the same stream fed to two engines
 * gives both the same errors. Clean frames cost nothing: work is proportional
 * to the number of errors (and, for bursty processes, of state changes).
 *
 * Slot indices are 64-bit; a process whose next error would fall beyond
 * MAX_SLOT reports NO_MORE_ERRORS instead.
 */
class BitErrorProcess : public Object
{
  public:
    /// Largest slot index a random process generates (2^62).
    static constexpr uint64_t MAX_SLOT = uint64_t(1) << 62;
    /// Largest frame size in bits.
    static constexpr uint32_t MAX_FRAME_BITS = 65536;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief Constructor.
    BitErrorProcess();
    /// \brief Destructor.
    ~BitErrorProcess() override;

    /**
     * \brief Set the number of bits per frame slot (e.g. 256, 192).
     *
     * Must be called before the first Peek(). Setting the same value again is a
     * no-op; changing it after events were generated (without Reset()) throws.
     * \param frameBits bits per slot, 1..MAX_FRAME_BITS (std::invalid_argument otherwise).
     */
    void SetFrameBits(uint32_t frameBits);

    /// \return the bits per frame slot (0 = not set yet).
    uint32_t GetFrameBits() const;

    /**
     * \brief The next errored slot of this stream (at or after the last popped one + 1).
     *
     * Throws std::invalid_argument if SetFrameBits() was not called.
     * \return the event; slot == FrameErrorEvent::NO_MORE_ERRORS when there are no more.
     */
    const FrameErrorEvent& Peek();

    /// \brief Move on to the following event (strictly larger slot); no-op at the end.
    void Pop();

    /**
     * \brief Pop every event whose slot is below \p slot.
     * \param slot the first slot of interest.
     * \return the next event at or after \p slot (same as Peek()).
     */
    const FrameErrorEvent& SkipTo(uint64_t slot);

    /**
     * \brief Assign fixed random variable stream numbers.
     * \param stream the first stream index to use.
     * \return the number of streams used.
     */
    virtual int64_t AssignStreams(int64_t stream) = 0;

    /**
     * \brief Restart the sequence at slot 0.
     *
     * Random processes re-seed their RNG streams with the stream numbers last
     * given to AssignStreams(), so the sequence after Reset() is identical to
     * the first one. If AssignStreams() was never called the RNG is not rewound
     * and a new (different) sequence follows. Subclasses that override must
     * call BitErrorProcess::Reset().
     */
    virtual void Reset();

    /// \return the long-run bit error rate (for the analytic model).
    virtual double GetMeanBer() const = 0;

    /**
     * \return how many times the next event may have changed (Pop(), Reset()): a
     *         caller that keeps Peek()'s slot may keep it while this stays the same.
     */
    uint64_t GetHeadChanges() const
    {
        return m_headChanges;
    }

    /**
     * \return a count that grows whenever the next event of any process of this
     *         program may have changed (the sum of every GetHeadChanges() and
     *         more): a caller that keeps the Peek() slots of several processes may
     *         keep them all while this stays the same, without asking each.
     */
    static uint64_t GetAnyHeadChanges()
    {
        return s_anyHeadChanges.load(std::memory_order_relaxed);
    }

    /**
     * \brief Draw a uniform number in (0,1] with 53-bit resolution from two draws.
     *
     * ns-3's uniform streams have ~2^-32 resolution, which would truncate
     * geometric tails at about 22 mean gaps; this combines the top 26 bits of
     * one draw and 27 of the next into k * 2^-53, k = 1..2^53. 1 - the result
     * is a uniform number in [0,1) on the same grid.
     * \param rv the stream to draw from.
     * \return the number.
     */
    static double DrawUniform53(Ptr<UniformRandomVariable> rv);

  protected:
    /**
     * \brief Generate the next errored slot.
     *
     * Called by Peek() for events in order. Implementations fill \p event with
     * a slot >= \p minSlot and ascending distinct bits in 0..GetFrameBits()-1,
     * or slot = NO_MORE_ERRORS.
     * \param minSlot the smallest slot the event may have (last event's slot + 1).
     * \param event the event to fill (its bits are empty on entry).
     */
    virtual void DoGenerateNext(uint64_t minSlot, FrameErrorEvent& event) = 0;

    /**
     * \brief Hook called when the frame size becomes known or changes.
     * \param frameBits the new frame size.
     */
    virtual void DoSetFrameBits(uint32_t frameBits);

    /// \return true once an event has been generated since construction / Reset().
    bool HasStarted() const;

  private:
    /**
     * \brief Peek()'s slow path: generate the next event.
     * \return the event.
     */
    const FrameErrorEvent& Generate();

    uint32_t m_frameBits{0}; //!< bits per slot, 0 = unset
    FrameErrorEvent m_event; //!< the cached next event
    bool m_valid{false};     //!< m_event holds the next event
    bool m_started{false};   //!< an event was generated since construction / Reset
    uint64_t m_nextSlot{0};  //!< the smallest slot the next event may have
    uint64_t m_headChanges{0}; //!< GetHeadChanges()

    /// GetAnyHeadChanges(): atomic, as processes of different threads share it (a
    /// thread always sees its own increments, which is all its callers need).
    static std::atomic<uint64_t> s_anyHeadChanges;
};

// Peek() and SkipTo() run for every received frame slot a link steps: inline, with
// the generation out of line.

inline const FrameErrorEvent&
BitErrorProcess::Peek()
{
    return m_valid ? m_event : Generate();
}

inline const FrameErrorEvent&
BitErrorProcess::SkipTo(uint64_t slot)
{
    while (Peek().slot < slot)
    {
        Pop();
    }
    return m_event;
}

} // namespace ns3

#endif /* RIFL_BIT_ERROR_PROCESS_H */
