/// An optional whose key is always written, as `null` when the value is absent: the synthesized `Encodable`
/// leaves an absent optional's key out, while hdrshoot's JSON (`status --json`, `discover --json`, the
/// manifests) names every key so a reader sees what is not known. One wrapper instead of a hand-written
/// `encode(to:)` per type that only differs from the synthesized one in this.
@propertyWrapper
package struct AlwaysEncoded<Value: Encodable>: Encodable {
    /// The value, or nil for `null`.
    package var wrappedValue: Value?

    /// The wrapper of `wrappedValue`.
    package init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    /// The value, or `null`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension AlwaysEncoded: Sendable where Value: Sendable {}
extension AlwaysEncoded: Equatable where Value: Equatable {}
