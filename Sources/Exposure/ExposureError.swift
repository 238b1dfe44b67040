/// What can go wrong while reading exposure values or planning a bracket.
///
/// Every case is a problem with the input (none is transient: retrying the same input fails the same way).
/// The CLI turns these into messages; this layer never formats them for people.
package enum ExposureError: Error, Sendable, Hashable {
    /// The text is not a shutter speed at all (`abc`, `1/`, empty).
    case notASpeed(text: String)
    /// The text is a number but zero or negative.
    case nonPositiveSpeed(text: String)
    /// The value is further than one step from every stop of the scale; `nearest` is the closest stop.
    case speedOffScale(text: String, scale: ShutterScale, nearest: ShutterSpeed)
    /// A planner input that must be a stop of the scale is not one.
    case speedNotOnScale(ShutterSpeed, scale: ShutterScale)
    /// The shadow reading is a faster speed than the highlight reading (they are swapped, most likely).
    case shadowFasterThanHighlight(shadow: ShutterSpeed, highlight: ShutterSpeed)
    /// The shadow reading is longer than the longest exposure the plan may hold (`--longest`).
    case shadowBeyondLongest(shadow: ShutterSpeed, longest: ShutterSpeed)
    /// The number of frames per set is outside `allowed`.
    case frameCountOutOfRange(Int, allowed: ClosedRange<Int>)
    /// The text is not one of the allowed bracket spacings.
    case invalidSpacing(text: String, allowed: [EVAmount])
    /// Speed matching was asked to match against a camera that offers no speeds.
    case noOfferedSpeeds

    /// Whether trying again unchanged could succeed; never, for exposure input.
    package var isTransient: Bool { false }
}
