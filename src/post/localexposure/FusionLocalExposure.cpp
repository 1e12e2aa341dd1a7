// FusionLocalExposure.cpp: the fusion local exposure's meter dispatch and the settings' mapping
// (post/localexposure/FusionLocalExposure.h).
#include "post/localexposure/FusionLocalExposure.h"

#include "gl/Debug.h"
#include "profiling/Profiler.h"
#include "shared/LocalExposure.h"

namespace post {

FusionSettings fusionSettingsFor(const LocalExposureSettings& s, const hd::LuminanceWeights& weights)
{
    FusionSettings f;
    f.highlightContrastScale = s.highlightContrastScale;
    f.shadowContrastScale = s.shadowContrastScale;
    f.middleGreyBias = s.middleGreyBias;
    f.luminance = weights;
    return f;
}

FusionLocalExposure::FusionLocalExposure() : mExposure("local-exposure.fusion.exposure", 4 * sizeof(float))
{
}

void FusionLocalExposure::run(PassContext& ctx,
                              const ImageInput& hdr,
                              const gl::Buffer& histogram,
                              const gl::Buffer& params,
                              const gl::Buffer& curve,
                              const FusionSettings& settings,
                              bool midFromCurve)
{
    mSettings = settings;
    {
        auto scope = ctx.profiler.scope("local-exposure/fusion/meter");
        if (!mMeterProgram)
            mMeterProgram = ctx.shaders.buildCompute("local-exposure.fusion.meter", "localexposure/FusionMeter.comp");
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        mMeterProgram.use();
        mMeterProgram.set(0, midFromCurve ? hd::kLocalExposureMidFromCurve : hd::kLocalExposureMidFromFrame);
        histogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
        params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
        curve.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
        mExposure.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingFusionExposure);
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    mFusion.run(ctx, hdr.texture, hdr.size, mExposure, settings);
}

float FusionLocalExposure::readExposureLog2() const
{
    return mExposure.readAll<float>(1).front();
}

}  // namespace post
