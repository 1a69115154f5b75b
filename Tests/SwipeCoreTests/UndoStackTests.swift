import PropertyBased
import Testing

@testable import SwipeCore

/// `UndoStack` against an array (the model): the same random appends and
/// pops, on copies taken along the way, give the same elements.
@Suite struct UndoStackTests {
    @Test func appendsAndPopsAsAnArrayDoes() {
        var stack = UndoStack<Int>()
        #expect(stack.isEmpty && stack.count == 0 && stack.last == nil && stack.popLast() == nil)
        stack.append(1)
        stack.append(2)
        stack.append(3)
        #expect(stack.elements == [1, 2, 3] && stack.count == 3 && stack.last == 3)
        #expect(stack.popLast() == 3)
        #expect(stack.elements == [1, 2] && stack.count == 2 && !stack.isEmpty)
        #expect(stack.popLast() == 2 && stack.popLast() == 1 && stack.popLast() == nil)
        #expect(stack.isEmpty && stack.count == 0 && stack.elements.isEmpty)
    }

    /// Copies share nodes; whatever one does, the other keeps its own
    /// elements. Each step picks a stack by its number and does one thing to
    /// it: append, pop, copy it (as the controller keeps one) or drop it.
    @Test func copiesAreIndependentValues() async {
        await propertyCheck(input: Gen.int(in: 0..<160).array(of: 1...300)) { steps in
            var stacks: [(stack: UndoStack<Int>, model: [Int])] = [(UndoStack(), [])]
            for (step, pick) in steps.enumerated() {
                let index = pick / 10 % stacks.count
                var (stack, model) = stacks[index]
                switch pick % 10 {
                case 0..<5:
                    stack.append(step)
                    model.append(step)
                case 5..<8:
                    #expect(stack.popLast() == model.popLast())
                case 8:
                    stacks.append((stack, model))
                default:
                    if stacks.count > 1 { stacks.remove(at: index) }
                    continue
                }
                stacks[index] = (stack, model)
            }
            for (stack, model) in stacks {
                #expect(stack.elements == model)
                #expect(stack.count == model.count && stack.last == model.last && stack.isEmpty == model.isEmpty)
            }
        }
    }
}
