import PTPIP

/// Why a device description could not be fetched over HTTP: the reason in
/// `SonyCameraError.descriptionUnreadable`.
///
/// Thrown inside the fetcher as is; `DescriptionFetcher.fetch` hands it out as this layer's error.
package enum DescriptionFetchFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The TCP connection failed as the transport reports it (refused, unreachable, reset).
    case transport(PTPIPError)
    /// The whole fetch, connection included, took longer than the fetcher's bound.
    case timedOut(address: String)
    /// The server closed the connection before its answer was complete; `during` says where.
    case endedEarly(during: String)
    /// The answer is not the HTTP the fetcher accepts (or is too large).
    case notHTTP(expected: String, received: String)

    /// One sentence a person can read.
    package var description: String {
        switch self {
        case let .transport(error):
            return error.description
        case let .timedOut(address):
            return "the camera at \(address) did not answer in time during HTTP GET of the device description"
        case let .endedEarly(during):
            return "the camera closed the connection during \(during)"
        case let .notHTTP(expected, received):
            return "protocol violation: expected \(expected), received \(received)"
        }
    }
}
