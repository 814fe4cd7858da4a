/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_GILBERT_ELLIOTT_ERROR_PROCESS_H
#define RIFL_GILBERT_ELLIOTT_ERROR_PROCESS_H

#include "bit-error-process.h"

namespace ns3
{

class UniformRandomVariable;

/**
 * \ingroup rifl-core
 * \brief Bursty bit errors: a two-state (Good/Bad) Gilbert-Elliott chain over line bits.
 *
 * Each state has its own BER (independent bit errors while in it) and a
 * geometric sojourn (in bits, mean MeanGoodBits / MeanBadBits, >= 1 bit). The
 * chain runs continuously over the line bits of consecutive frames (bit k of
 * slot s is line bit s * n + k). The initial state is drawn from the
 * stationary distribution pi_Bad = MeanBadBits / (MeanGoodBits + MeanBadBits).
 *
 * Exact and skip-based: the next error inside a sojourn is a geometric skip,
 * a sojourn without error is jumped over whole; the cost is proportional to
 * errors plus state changes, never to bits or clean frames. Sojourns are capped
 * at 2^62 bits and slots at MAX_SLOT. Attributes set after the first Peek()
 * apply to sojourns and gaps drawn afterwards. Uses one RNG stream.
 */
class GilbertElliottErrorProcess : public BitErrorProcess
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief Constructor.
    GilbertElliottErrorProcess();
    /// \brief Destructor.
    ~GilbertElliottErrorProcess() override;

    /**
     * \brief Set the BER in the Good state.
     * \param ber the BER, in [0,1) (std::invalid_argument naming "GoodBer" otherwise).
     */
    void SetGoodBer(double ber);
    /// \return the BER in the Good state.
    double GetGoodBer() const;

    /**
     * \brief Set the BER in the Bad state.
     * \param ber the BER, in [0,1) (std::invalid_argument naming "BadBer" otherwise).
     */
    void SetBadBer(double ber);
    /// \return the BER in the Bad state.
    double GetBadBer() const;

    /**
     * \brief Set the mean Good-state sojourn.
     * \param bits the mean in bits, >= 1 and finite (std::invalid_argument naming
     *        "MeanGoodBits" otherwise).
     */
    void SetMeanGoodBits(double bits);
    /// \return the mean Good-state sojourn in bits.
    double GetMeanGoodBits() const;

    /**
     * \brief Set the mean Bad-state sojourn.
     * \param bits the mean in bits, >= 1 and finite (std::invalid_argument naming
     *        "MeanBadBits" otherwise).
     */
    void SetMeanBadBits(double bits);
    /// \return the mean Bad-state sojourn in bits.
    double GetMeanBadBits() const;

    /// \return the stationary probability of the Bad state.
    double GetBadStateProbability() const;

    int64_t AssignStreams(int64_t stream) override;
    void Reset() override;
    /// \return the stationary mix pi_Good * GoodBer + pi_Bad * BadBer.
    double GetMeanBer() const override;

  protected:
    void DoDispose() override;
    void DoGenerateNext(uint64_t minSlot, FrameErrorEvent& event) override;

  private:
    /// A line bit position as (slot, bit in frame).
    struct Position
    {
        uint64_t slot{0}; //!< slot index
        uint32_t bit{0};  //!< bit within the frame
    };

    /**
     * \brief Advance a position by a number of bits.
     * \param pos the position.
     * \param bits the number of bits.
     */
    void Advance(Position& pos, uint64_t bits) const;

    /**
     * \brief Draw a sojourn for a state.
     * \param bad true for the Bad state.
     * \return the sojourn in bits, >= 1.
     */
    uint64_t DrawSojourn(bool bad);

    /**
     * \brief Find the next errored line bit after the cursor and store it in m_pending.
     * \return false if there is none before MAX_SLOT.
     */
    bool DrawNextError();

    double m_goodBer{0};              //!< BER in the Good state
    double m_badBer{0};               //!< BER in the Bad state
    double m_meanGoodBits{1e6};       //!< mean Good sojourn in bits
    double m_meanBadBits{100};        //!< mean Bad sojourn in bits
    Ptr<UniformRandomVariable> m_rng; //!< the single random stream
    bool m_initialized{false};        //!< initial state drawn
    bool m_bad{false};                //!< current state is Bad
    uint64_t m_remaining{0};          //!< bits left in the current sojourn, from m_cursor
    Position m_cursor;                //!< first line bit not yet examined
    bool m_hasPending{false};         //!< m_pending holds a drawn error
    bool m_exhausted{false};          //!< no more errors
    Position m_pending;               //!< the next errored bit, already drawn
};

} // namespace ns3

#endif /* RIFL_GILBERT_ELLIOTT_ERROR_PROCESS_H */
