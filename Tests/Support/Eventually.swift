/// Waits for `condition`, checking every few milliseconds, for at most
/// `seconds`: for what another thread or process brings (a pushed match),
/// never as a pause standing in for synchronization.
public func eventually(within seconds: Double = 20, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}
