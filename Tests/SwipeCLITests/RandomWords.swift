/// `count` random words of 1…`maxLength` characters drawn from `alphabet`.
func randomWords(_ count: Int, from alphabet: String, maxLength: Int) -> [String] {
    var generator = SystemRandomNumberGenerator()
    let characters = Array(alphabet)
    return (0..<count).map { _ in
        String(
            (0..<Int.random(in: 1...maxLength, using: &generator)).map { _ in
                characters.randomElement(using: &generator)!
            })
    }
}
