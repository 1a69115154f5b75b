import SwipeStore

/// A value bound to a statement parameter or carried in an error: SwipeStore's `SQLValue`.
public typealias SQLiteValue = SQLValue
