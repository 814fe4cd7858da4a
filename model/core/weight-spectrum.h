/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_WEIGHT_SPECTRUM_H
#define RIFL_WEIGHT_SPECTRUM_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-core
 * \brief Exact low-weight spectra of linear error checks, by the syndrome method.
 *
 * A linear check over n line bits is described by its syndrome map: s_i is
 * the change in the check result when line bit i alone is flipped. An error
 * pattern e goes undetected iff the XOR of s_i over its set bits is zero.
 * A_w is the number of weight-w undetected patterns.
 *
 * The syndrome map of a CRC is built either from the textbook rule
 * (CrcSyndromes(): s_i = x^i mod g(x) for a systematic n-bit codeword) or,
 * for the module's real codecs, by flipping single bits through the real
 * encoder/decoder (the codec classes provide their maps), so that the spectrum
 * describes exactly the check the simulation applies.
 */
class WeightSpectrum
{
  public:
    /**
     * \brief Syndromes of a systematic CRC codeword of \p n bits.
     * \param width the CRC width, 1..32.
     * \param poly the generator, normal notation without x^width.
     * \param n codeword length in bits (message + check), >= width.
     * \return s_i = x^i mod g(x), i = 0..n-1 (bit i = coefficient of x^i).
     */
    static std::vector<uint32_t> CrcSyndromes(uint32_t width, uint32_t poly, uint32_t n);

    /**
     * \brief Count the w-subsets of positions whose syndromes XOR to \p target.
     *
     * Exact for w = 0..4: w <= 3 by direct enumeration with a syndrome index;
     * w = 4 from the number c_v of pairs per XOR value v,
     * (sum_v c_v c_(v^t) / (t ? 2 : 1) ... ) corrected for pairs that share a
     * position (see the implementation). Memory grows with n(n-1)/2 for w = 4.
     *
     * \param syndromes the syndrome of every position.
     * \param w the weight, 0..4 (std::invalid_argument naming "w" otherwise).
     * \param target the XOR value to count (0 = undetected patterns).
     * \return the number of such subsets.
     */
    static uint64_t Count(const std::vector<uint32_t>& syndromes, uint32_t w, uint32_t target = 0);

    /**
     * \brief A_2 .. A_maxWeight of a syndrome map (index = weight; [0] = 1, [1] = A_1).
     * \param syndromes the syndrome of every position.
     * \param maxWeight highest weight, 1..4.
     * \return the spectrum A_0..A_maxWeight.
     */
    static std::vector<uint64_t> Spectrum(const std::vector<uint32_t>& syndromes,
                                          uint32_t maxWeight = 4);

    /**
     * \brief P_ud = sum_{w=1..W} A_w p^w (1-p)^(n-w), the probability that a
     *        codeword is hit by a nonzero undetected pattern, truncated at the
     *        spectrum's top weight (the truncation is the next term's order).
     * \param spectrum A_0..A_W (A_0 is ignored).
     * \param n codeword length in bits.
     * \param ber bit error probability in [0, 1).
     * \return P_ud, computed in log space so it stays exact at tiny BER.
     */
    static double UndetectedProbability(const std::vector<uint64_t>& spectrum, uint32_t n,
                                        double ber);

    /**
     * \brief Brute-force count over all w-subsets (a reference for tests; small n only).
     * \param syndromes the syndrome of every position.
     * \param w the weight.
     * \param target the XOR value to count.
     * \return the number of such subsets.
     */
    static uint64_t CountBruteForce(const std::vector<uint32_t>& syndromes, uint32_t w,
                                    uint32_t target = 0);
};

} // namespace ns3

#endif /* RIFL_WEIGHT_SPECTRUM_H */
