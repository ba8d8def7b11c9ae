/// Times the phases of the driver contract: one warm-up run, then `reps` timed runs; the median counts.
struct PhaseTimer {
    let reps: Int
    /// Every timed run, in seconds, by phase name (the "samples" of the report).
    private(set) var samples: [(name: String, seconds: [Double])] = []

    init(reps: Int) {
        self.reps = reps
    }

    /// Runs `body` once to warm up and `reps` times timed; returns the median of the timed runs in seconds.
    /// `prepare` runs, untimed, before each run of `body`.
    mutating func median(_ name: String, prepare: () -> Void = {}, _ body: () -> Void) -> Double {
        prepare()
        body()
        var seconds: [Double] = []
        for _ in 0..<reps {
            prepare()
            seconds.append(PhaseTimer.seconds(body))
        }
        samples.append((name, seconds))
        let sorted = seconds.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// How long `body` takes, in seconds.
    static func seconds(_ body: () -> Void) -> Double {
        let elapsed = ContinuousClock().measure(body)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
