/// What a reused statement's parameters hold, of the values that repeat
/// from one row to the next: NULLs, small integers, reals.
///
/// SQLite keeps a statement's bindings across `sqlite3_reset`, so a value
/// equal to the one a parameter already holds need not be bound again.
/// Binding one costs SQLite about 100 instructions; a profile row repeats
/// 6 to 8 of its 14 parameters when the file has no discovery columns (the
/// age range at its default, no place, no `seeking`), about 700
/// instructions a row of the import's writing thread (callgrind).
///
/// Only the one thread that uses the statement touches it.
final class BindMemory {
    /// A value a parameter holds. Text is never remembered: it is bound in
    /// place from a buffer that changes with every row.
    enum Value: Equatable {
        case null
        case int(Int)
        /// The real's bits, so that equal means bound the same (NaN, -0).
        case real(UInt64)
    }

    private let count: Int
    /// Parameter `n`'s value at `values[n - 1]`; nil when not known.
    private let values: UnsafeMutablePointer<Value?>

    /// For a statement of `parameters` parameters, none known yet.
    init(parameters: Int) {
        count = parameters
        values = .allocate(capacity: parameters)
        values.initialize(repeating: nil, count: parameters)
    }

    deinit {
        values.deinitialize(count: count)
        values.deallocate()
    }

    /// Parameter `index` (1-based)'s value, as far as known.
    subscript(index: Int32) -> Value? {
        get { values[Int(index) - 1] }
        set { values[Int(index) - 1] = newValue }
    }
}

extension Statement {
    /// Binds `value` to parameter `index` unless `memory` knows it holds it.
    func bind(_ index: Int32, _ value: BindMemory.Value, memory: BindMemory?) throws {
        if let memory {
            if memory[index] == value { return }
            // Unknown until the bind has succeeded.
            memory[index] = nil
        }
        switch value {
        case .null: try bind(index, bytes: nil)
        case .int(let int): try bind(index, int: int)
        case .real(let bits): try bind(index, double: Double(bitPattern: bits))
        }
        memory?[index] = value
    }

    /// `real` or NULL, through `memory`.
    func bind(_ index: Int32, real: Double?, memory: BindMemory?) throws {
        try bind(index, real.map { .real($0.bitPattern) } ?? .null, memory: memory)
    }
}
