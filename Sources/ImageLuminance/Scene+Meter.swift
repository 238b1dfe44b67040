import Exposure

extension Scene {
    /// The exposure time a camera's meter calls correct for this scene: the one that puts the scene's log-average
    /// luminance (its geometric mean over a 48x32 grid, as a multi-segment meter weighs a frame) at middle grey,
    /// a relative exposure of 0.18 (see `ToneCurve`).
    package var meteredSeconds: Double {
        var sum = 0.0
        let columns = 48
        let rows = 32
        for row in 0..<rows {
            for column in 0..<columns {
                let x = (Double(column) + 0.5) / Double(columns)
                let y = (Double(row) + 0.5) / Double(rows)
                sum += Math.log2(max(1e-9, luminance(x, y)))
            }
        }
        let logAverage = Math.exp2(sum / Double(rows * columns))
        return 0.18 / logAverage
    }

    /// What a Sony body's 0xD1B5 Metered Manual Level reads when this scene is shot for `seconds`: the exposure
    /// against the metered one in EV × 1000 (reference p. 398), + when brighter, within ±5 EV as the M.M.
    /// indicator shows it.
    package func meteredManualLevel(seconds: Double) -> Int16 {
        let ev = Math.log2(seconds / meteredSeconds)
        return Int16(min(5000, max(-5000, (ev * 1000).rounded())))
    }
}
