import Foundation
import SwipeStore

/// Reads and prepares an import's records on a thread of its own while the
/// importing thread writes the previous ones to SQLite.
///
/// Reading the CSV and checking and encoding its rows costs about as many
/// instructions as SQLite's inserts (callgrind, profile import: 210 M against
/// 204 M for 17,580 rows), so on two cores the two halves overlap instead of
/// adding up. Records travel in batches through a pool of at most `depth`
/// batches, made as first needed: the reader blocks when the writer is
/// `depth` batches behind, so
/// memory stays flat whatever the file's size, and batch storage is reused,
/// so a row costs no allocation once the pool is warm. A batch slot holds
/// about 1.7 KB once warm, so each batch of 256 rows costs about 0.44 MB:
/// 8 batches keep a million-row import at 54 MB peak where 32 took 64 MB.
/// A deeper pool lets the writer ride out the reader's slow stretches (long
/// bios, a preempted thread); with 4 batches the writer once waited 0.1–0.25 s
/// of a 2 s million-row import. The reader is now the slower half (about
/// 17,000 instructions a row against the writer's 10,000), so the writer
/// waits for it whatever the depth.
///
/// The reader thread alone touches the `CSVReader` and `prepare`; the batches
/// change hands under `condition`. The writer must call `finish()` on every
/// path out (it cancels the reader if it is still running and joins it).
package final class ImportPipeline<Row>: @unchecked Sendable {
    /// One record as read, with what `prepare` made of it or why it could not.
    package struct Slot {
        package var record = CSVRawRecord()
        package var row: Row
        package var issue: CSVImport.RowIssue?
    }

    /// Consecutive records, and how far into the file the reader had got.
    package struct Batch {
        package var slots: [Slot] = []
        package var count = 0
        package var bytesRead = 0
    }

    private let reader: CSVReader
    private let fields: Int
    private let prepare: (CSVRawRecord, inout Row) throws -> Void
    private let condition = NSCondition()
    /// Batches made so far, up to `depth`: made as the reader first needs
    /// them, so a small file does not pay for the whole pool.
    private var free: [Batch] = []
    private var made = 0
    private let depth: Int
    private let makeBatch: () -> Batch
    private var full: [Batch] = []
    private var readerDone = false
    private var cancelled = false
    private var failure: (any Error)?
    private var endBytesRead = 0

    /// Starts reading records after the header from `reader`, each expected
    /// to have `fields` fields, preparing each with `prepare` (which throws a
    /// `RowIssue` for a bad row) into a `Row` made by `makeRow`.
    package init(
        reader: CSVReader, fields: Int, batchSize: Int = 256, depth: Int = 8, makeRow: @escaping () -> Row,
        prepare: @escaping (CSVRawRecord, inout Row) throws -> Void
    ) {
        self.reader = reader
        self.fields = fields
        self.prepare = prepare
        self.depth = depth
        makeBatch = {
            Batch(
                slots: (0..<batchSize).map { _ in
                    var slot = Slot(row: makeRow())
                    // Room for a typical record up front, so the first batches
                    // do not grow every buffer step by step.
                    slot.record.bytes.reserveCapacity(512)
                    slot.record.ends.reserveCapacity(16)
                    return slot
                })
        }
        let thread = Thread { [self] in read() }
        thread.name = "swipe-import-reader"
        thread.start()
    }

    /// The next batch in file order, waiting for the reader; nil once every
    /// record has been handed over. Throws what stopped the reader (a
    /// `CSVError`: bad UTF-8, an unterminated quote, an unreadable file).
    package func next() throws -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while full.isEmpty && !readerDone { condition.wait() }
        if !full.isEmpty { return full.removeFirst() }
        if let failure { throw failure }
        return nil
    }

    /// How far into the file the reader has got: all of it once `next()` has
    /// returned nil (the last batch's `bytesRead` may stop short of a final
    /// line break).
    package var bytesRead: Int {
        condition.lock()
        defer { condition.unlock() }
        return endBytesRead
    }

    /// Gives a batch the writer has finished with back to the reader (pass
    /// it with `consume`, for the reason `read()` does).
    package func recycle(_ batch: consuming Batch) {
        condition.lock()
        free.append(batch)
        condition.signal()
        condition.unlock()
    }

    /// Stops the reader if it is still running and waits for its thread to
    /// end: after this the reader's file is no longer touched.
    package func finish() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !readerDone { condition.wait() }
        condition.unlock()
    }

    /// The reader thread's loop.
    private func read() {
        var ended = false
        while !ended {
            condition.lock()
            while free.isEmpty && made == depth && !cancelled { condition.wait() }
            if cancelled {
                readerDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
            var batch: Batch
            if let recycled = free.popLast() {
                condition.unlock()
                batch = recycled
            } else {
                made += 1
                condition.unlock()
                batch = makeBatch()  // outside the lock: the writer need not wait for it
            }

            do {
                ended = try fill(&batch)
            } catch {
                condition.lock()
                failure = error
                condition.unlock()
                ended = true
            }
            condition.lock()
            endBytesRead = reader.bytesRead
            // Handed over with `consume`: a copy kept here would make the
            // writer's first change copy the whole batch.
            if batch.count > 0 { full.append(consume batch) } else { free.append(consume batch) }
            if ended { readerDone = true }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Reads up to a batch of records into `batch`: true at the end of the file.
    ///
    /// The slots are reached through one buffer pointer for the whole batch:
    /// this code is not specialized for `Row`, and reaching them row by row
    /// looked up `Slot<Row>`'s metadata twice a row (about 650 instructions).
    private func fill(_ batch: inout Batch) throws -> Bool {
        var count = 0
        defer {
            batch.count = count
            batch.bytesRead = reader.bytesRead
        }
        let (reader, fields, prepare) = (reader, fields, prepare)
        return try batch.slots.withUnsafeMutableBufferPointer { slots in
            while count < slots.count {
                guard try Self.readSlot(&slots[count], from: reader, fields: fields, prepare: prepare) else {
                    return true
                }
                count += 1
            }
            return false
        }
    }

    /// Reads one record into `slot` and prepares it: false at the end of the file.
    @inline(__always)
    private static func readSlot(
        _ slot: inout Slot, from reader: CSVReader, fields: Int,
        prepare: (CSVRawRecord, inout Row) throws -> Void
    ) throws -> Bool {
        guard try reader.next(into: &slot.record) else { return false }
        slot.issue = nil
        do {
            try CSVImport.checkFieldCount(slot.record, header: fields)
            try prepare(slot.record, &slot.row)
        } catch let issue as CSVImport.RowIssue {
            slot.issue = issue
        }
        return true
    }
}
