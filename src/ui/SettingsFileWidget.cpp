#include "ui/SettingsFileWidget.h"

#include "post/PipelineParameters.h"
#include "post/SettingsFile.h"
#include "ui/Widgets.h"

#include <imgui.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <utility>

namespace ui {

SettingsFileWidget::SettingsFileWidget()
{
    setPath(kDefaultPath);
}

void SettingsFileWidget::setPath(const std::string& path)
{
    mPath.fill('\0');
    std::copy_n(path.begin(), std::min(path.size(), mPath.size() - 1), mPath.begin());
}

bool SettingsFileWidget::save(post::PostPipeline& pipeline)
{
    try {
        post::writeSettingsFile(path(), post::PipelineParameters(pipeline),
                                mLayout ? layoutKeys(*mLayout) : post::ExtraSettingKeys{});
        std::error_code ec;
        const std::filesystem::path absolute = std::filesystem::absolute(path(), ec);
        mStatus = "saved " + (ec ? path() : absolute.string());
        mFailed = false;
    } catch (const std::exception& error) {
        mStatus = std::string("save failed: ") + error.what();
        mFailed = true;
    }
    return !mFailed;
}

bool SettingsFileWidget::load(post::PostPipeline& pipeline)
{
    try {
        post::PipelineParameters parameters(pipeline);
        std::vector<std::string> warnings = post::loadSettingsFile(path(), parameters);
        if (mLayout)
            for (std::string& warning :
                 applyLayoutKeys(post::readSettingsSection(path(), post::kLayoutKeyPrefix), *mLayout))
                warnings.push_back(std::move(warning));
        mStatus = "loaded " + path();
        for (const std::string& warning : warnings)
            mStatus += "\n" + warning;
        mFailed = false;
    } catch (const std::exception& error) {
        mStatus = std::string("load failed: ") + error.what();
        mFailed = true;
    }
    return !mFailed;
}

void SettingsFileWidget::draw(post::PostPipeline& pipeline, profiling::Profiler& profiler)
{
    ImGui::InputText("path##settings", mPath.data(), mPath.size());
    checkItemFits("path");
    helpMarker(
        "Every setting of the pipeline, the methods and the operators as JSON: hdrlab --settings FILE (and "
        "tonemap, bench pipeline) reads the same file; hdrlab settings --list prints every key.");
    if (ImGui::Button("Save settings"))
        save(pipeline);
    checkItemFits("Save settings");
    ImGui::SameLine();
    if (ImGui::Button("Load settings") && load(pipeline))
        profiler.resetStats();
    checkItemFits("Load settings");
    if (!mStatus.empty())
        TextColouredWrapped(mFailed ? kErrorColor : kOkColor, mStatus);
}

}  // namespace ui
