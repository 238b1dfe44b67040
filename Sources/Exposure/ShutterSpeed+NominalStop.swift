extension ShutterSpeed {
    /// The speed's nominal position in thirds of a stop relative to 1": 3·log2(seconds) rounded to the
    /// nearest whole third (1/8000 is -39, 1/6400 is -38, 30" is 15).
    ///
    /// This is what "one stop apart" means on a camera: nominal speeds like 1/6400 are not exactly a
    /// third from their neighbours, but they sit on the third-stop grid. Computed from the binary exponent
    /// (round(log2 x) = exponent + 1 when the significand is at least √2, written out) so no libm is needed.
    package var nominalThirds: Int {
        let time = seconds
        let cubed = time * time * time
        let exponent = Int(cubed.exponent)
        return cubed.significand >= 1.4142135623730951 ? exponent + 1 : exponent
    }
}
