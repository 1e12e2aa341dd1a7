// DeepFlatten.h: flattening one deep pixel (a list of samples with depths) into one RGBA value, as
// OpenEXR's "Interpreting OpenEXR Deep Pixels" (openexr.com, F. Kainz and P. Hillman) defines it:
// make the pixel tidy (sort by Z then ZBack, split volume samples where others begin or end inside
// them, merge samples that then cover the same depths), then composite front to back with "over":
// C += (1 - A) * c; A += (1 - A) * a. Colours are premultiplied by alpha, as in OpenEXR files.
//
// Rules for what the document leaves open or forbids (docs/IMAGE_IO.md lists them too):
//  - A pixel whose samples are already tidy (the usual case: renderers write sorted, non-overlapping
//    samples) is composited from the stored values in float, sample by sample, exactly like
//    OpenEXR's own Imf::DeepCompositing; splitting and merging (in double) happen only where
//    samples overlap. Compositing stops once A reaches 1 (OpenEXR does the same) or is NaN.
//  - No samples: (0, 0, 0, 0), transparent black, like pixels outside a flat image's data window.
//  - No depth (the part has no Z channel, which the format requires): samples composited in their
//    stored order, without tidying. Missing ZBack: every sample is a point sample at Z. Missing
//    alpha: every sample is opaque (a = 1), as a flat image without alpha is; so the front sample wins.
//  - A sample is a point sample at Z when ZBack <= Z (the document's rule), when ZBack is NaN, or when
//    the volume would be infinitely long (Z = -inf or ZBack = +inf). A NaN Z counts as +inf (behind
//    everything) so that the order stays well defined.
//  - Splitting and merging use alpha clamped to [0, 1] (a NaN alpha counts as 0), like the document's
//    example code; opaque volume pieces stay opaque with their full colour, and coincident opaque
//    samples average their colours. Colour NaN/Inf pass through the arithmetic unchanged.
// Cost: O(n log n) per pixel of n samples (the active volumes' sums live in a segment tree; no
// pairwise merging); an overlapping pixel needs up to about 250 bytes per sample while it is flattened.
#pragma once

#include <array>
#include <span>
#include <vector>

namespace image {

/// One deep sample. `red`, `green`, `blue` are premultiplied by `alpha`.
struct DeepSample
{
    float z = 0.0f;
    float zBack = 0.0f;
    float red = 0.0f;
    float green = 0.0f;
    float blue = 0.0f;
    float alpha = 1.0f;
};

enum class DeepDepth {
    Present,  ///< `z`/`zBack` are the samples' depths
    Absent,   ///< no Z channel: composite in stored order
};

/// Flattens pixels one after another; keeps its scratch buffers between pixels.
class DeepPixelFlattener
{
public:
    /// Premultiplied RGBA of `samples` composited front to back (see the header comment).
    std::array<float, 4> flatten(std::span<const DeepSample> samples, DeepDepth depth);

private:
    std::array<float, 4> compositeOverlapping();

    std::vector<DeepSample> mSorted;
    std::vector<std::size_t> mVolumes;        // indices into mSorted, by front
    std::vector<std::size_t> mVolumesByBack;  // the same, by back
    std::vector<float> mDepths;               // every distinct front, back and point depth
    std::vector<std::size_t> mSlotOf;         // per sample of mSorted: its slot among mVolumes
};

}  // namespace image
