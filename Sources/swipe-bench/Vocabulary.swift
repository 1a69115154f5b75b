/// Words the data generators draw from: names and cities in many scripts,
/// emoji (several of them multi-scalar), interests and bio sentences.
enum Vocabulary {
    static let givenNames = [
        "Ana", "Sofía", "Chloé", "Zoë", "Søren", "Jiří", "Ingrid", "Aoife", "Олена", "Дмитрий", "Ελένη",
        "Γιώργος", "Ayşe", "Mehmet", "فاطمة", "محمد", "נועה", "אורי", "प्रिया", "राहुल", "অনন্যা", "அருண்",
        "王芳", "张伟", "花子", "健", "지은", "민준", "Thị Mai", "Văn Minh", "สมศรี", "สมชาย", "Amara",
        "Chinedu", "Wanjiru", "Kwame", "Leilani", "Aroha", "João", "Björn", "Ἀλέξανδρος", "Nikoloz",
        "ნინო", "Արամ", "ሰላም", "Alex", "Sam", "Kai", "Quinn", "Yuki",
    ]
    static let familyNames = [
        "García", "Müller", "Dvořák", "Kowalska", "Шевченко", "Иванов", "Παπαδοπούλου", "Yılmaz", "العلي",
        "כהן", "शर्मा", "দাস", "செல்வம்", "李", "陈", "佐藤", "鈴木", "김", "박", "Nguyễn", "Trần", "ใจดี",
        "Okafor", "Kamau", "Mensah", "Kahale", "Ngata", "Silva", "Guðmundsson", "O'Connor", "Ó Murchú",
        "გელაშვილი", "Պետրոսյան", "Smith", "de Vries", "Rossi",
    ]
    static let genders = ["female", "male", "non-binary", ""]
    static let cities = [
        "Lisboa", "Paris", "København", "Kraków", "Київ", "Αθήνα", "İstanbul", "القاهرة", "תל אביב", "मुंबई",
        "北京", "東京", "서울", "Hà Nội", "กรุงเทพฯ", "Lagos", "Nairobi", "São Paulo", "Reykjavík", "Zürich",
        "Tbilisi", "Yerevan", "Addis Ababa", "",
    ]
    static let emoji = ["😀", "🌈", "🏳️‍🌈", "👩🏽‍💻", "🧗‍♀️", "🍜", "☕️", "🐕", "🎸", "🇵🇹", "❤️‍🔥", "🫶🏿"]
    static let interests = [
        "hiking", "climbing", "surfing", "yoga", "chess", "poetry", "jazz", "k-pop", "cooking", "coffee",
        "photography", "anime", "astronomy", "gardening", "dogs", "cats", "languages", "calligraphy",
        "pottery", "dancing", "mountains", "書道", "футбол", "موسيقى", "요리", "ดนตรี",
    ]
    static let openers = [
        "Hi!", "Olá!", "Bonjour.", "Hallo.", "Привет!", "Γεια σας!", "Merhaba.", "مرحبا!", "שלום!", "नमस्ते!",
        "你好！", "こんにちは。", "안녕하세요!", "Xin chào!", "สวัสดี!", "Jambo!", "Kia ora!",
    ]
    static let sentences = [
        "I like slow mornings and fast trains.", "Looking for someone to share noodles with.",
        "Weekend climber, weekday coder.", "Will talk about maps for hours.",
        "Я люблю горы и хорошие книги.", "Μου αρέσει η θάλασσα.", "Kahve olmadan yaşayamam.",
        "أحب السفر والقراءة.", "אוהבת לטייל בטבע.", "मुझे संगीत पसंद है।", "我喜欢旅行和摄影。",
        "週末はカフェ巡り。", "주말에는 등산을 해요.", "Tôi thích nấu ăn.", "ชอบกินข้าวเหนียวมะม่วง",
        "Fluent in sarcasm and Portuguese.", "Plants: 14. Regrets: 0.",
    ]
}
