import ImageLuminance

extension LuminanceError: CLIReportable {
    /// An image that cannot be read stays unreadable: a plain failure.
    package var exitCode: ExitCode { isTransient ? .transientFailure : .failure }

    /// One line saying what is wrong with the image and where.
    package var cliMessage: String {
        switch self {
        case let .truncated(field, offset):
            return "the image is cut short: it ends at byte \(offset), inside its \(field)"
        case let .malformed(field, offset, reason):
            return "the image is damaged: its \(field) at byte \(offset) holds \(reason)"
        case let .unsupported(what):
            return what
        case let .tooLarge(width, height, maximumPixels):
            return "the image is \(width)x\(height), more than the \(maximumPixels / 1_000_000) MP hdrshoot reads"
        case .noPreview:
            return "the raw file holds no JPEG preview to read the exposure from"
        case let .container(error):
            return "the raw file is damaged: \(error)"
        case let .unsupportedFormat(format):
            return "the file is \(format == .unknown ? "of an unknown format" : "a \(format) file"), not a JPEG or ARW"
        }
    }
}
