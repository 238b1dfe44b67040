import Exposure
import ImageLuminance
import Shooting

/// The bracket as asked has two forms on purpose, and these are the only crossings between them:
///
/// - `ShootRecipe` is the recorded form: labels as the photographer's readings resolved to stops (`1/4`, `third`,
///   `fast-first`), plus what only a recorded shoot has (`--link-shared`, the sets `--check extend` appended). It
///   is what the journal and `manifest.json` store, what people and `hdrshoot merge`/`check` read, and what
///   journals written by every earlier version hold; changing it is a change of those files' format.
/// - `SeriesRecord.Base` is the typed form each repetition of a series is planned from (and shifted).
///
/// Nothing parses the recipe's labels but this extension; nothing writes them but `init(_:linkShared:)`.
extension ShootRecipe {
    /// The recipe of a bracket asked as `base` (labels of its stops and settings).
    package init(_ base: SeriesRecord.Base, linkShared: Bool) {
        self.init(
            shadow: base.shadow.label, highlight: base.highlight.label, frames: base.frames,
            spacing: base.spacing.label, scale: base.scale.rawValue, order: base.order.rawValue, dedupe: base.dedupe,
            linkShared: linkShared)
    }

    /// The recipe typed again (nil when a label is not one this version reads: a hand-edited journal).
    package var base: SeriesRecord.Base? {
        guard let scale = ShutterScale(rawValue: scale), let order = BracketOrder(rawValue: order),
            let shadow = try? scale.parseSpeed(shadow).speed, let highlight = try? scale.parseSpeed(highlight).speed,
            let spacing = try? EVAmount.spacing(parsing: spacing)
        else { return nil }
        return SeriesRecord.Base(
            shadow: shadow, highlight: highlight, frames: frames, spacing: spacing, scale: scale, dedupe: dedupe,
            order: order)
    }

    /// The scale the recipe names (third when it names none this version reads).
    package var shutterScale: ShutterScale { ShutterScale(rawValue: scale) ?? .third }

    /// The two readings as stops of the recipe's scale (nil when one is not a speed this version reads).
    package var readings: MeterReadings? {
        let scale = shutterScale
        guard let shadow = try? scale.parseSpeed(shadow).speed, let highlight = try? scale.parseSpeed(highlight).speed
        else { return nil }
        return MeterReadings(shadow: shadow, highlight: highlight)
    }
}
