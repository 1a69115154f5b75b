#!/usr/bin/env python3
"""Writes seed/profiles.csv and seed/decisions.csv, deterministically.

Profiles: a demo viewer (id `demo`) and 240 others with names from many
cultures and scripts, multi-line bios holding commas, quotes and emoji, photo
URLs and interests. Decisions: about 30% of the others already like or
superlike `demo` (so a first session makes matches), plus decisions among the
others so history, matches and stats have something to show.

Run from the repository root: python3 scripts/make-seed.py
"""
import csv
import random

rng = random.Random(20261121)

NAMES = {
    "female": [
        "Ana García", "Sofía Martínez", "Chloé Dubois", "Élodie Laurent", "Zoë Müller", "Greta Schäfer",
        "Aoife Ní Bhriain", "Ingrid Johansson", "Maja Kowalska", "Zuzana Nováková", "Олена Шевченко",
        "Анна Смирнова", "Ελένη Παπαδοπούλου", "Ayşe Yılmaz", "فاطمة الزهراء", "نور حسن", "נועה כהן",
        "प्रिया शर्मा", "অনন্যা দাস", "தமிழ்செல்வி", "王芳", "李娜", "陈静", "佐藤 花子", "鈴木 美咲", "김지은",
        "이서연", "Nguyễn Thị Mai", "Siti Nurhaliza", "สมศรี ใจดี", "Amara Okafor", "Wanjiru Kamau",
        "Thandiwe Nkosi", "Fatoumata Diallo", "Leilani Kahale", "Aroha Ngata", "Mariana Silva",
        "Valentina Rossi", "Camila Fernández", "Isabel O'Connor", "Hannah Goldberg", "Priya Natarajan",
        "Yasmin Haddad", "Freya Sigurðardóttir", "Mei-Ling Chou", "Kalani Akana", "Sanne de Vries",
        "Laila Karimi", "Ayelet Ben-David", "Oluwaseun Adeyemi",
    ],
    "male": [
        "Mateo López", "Lucas Moreau", "Jonas Becker", "Søren Nielsen", "Piotr Nowak", "Jiří Dvořák",
        "Дмитрий Иванов", "Тарас Коваленко", "Γιώργος Νικολάου", "Mehmet Demir", "محمد العلي",
        "يوسف إبراهيم", "אורי לוי", "राहुल वर्मा", "অর্জুন রায়", "கார்த்திக்", "张伟", "刘洋", "黄磊",
        "田中 太郎", "高橋 健", "박민준", "최현우", "Trần Văn Minh", "Budi Santoso", "สมชาย ทองดี",
        "Chinedu Eze", "Kwame Mensah", "Sipho Dlamini", "Mamadou Diop", "Keanu Kealoha", "Tane Whaanga",
        "João Pereira", "Giovanni Bianchi", "Diego Hernández", "Seán Ó Murchú", "David Cohen",
        "Arjun Iyer", "Omar Farouk", "Björn Guðmundsson", "Wei Zhang", "Rafael Souza", "Luca Ferrari",
        "Ahmad Rahimi", "Emre Kaya", "Tomás Ruiz", "Kenji Watanabe", "Nikolai Petrov", "Ivan Horvat",
        "Ravi Shankar",
    ],
    "non-binary": [
        "Alex Kim", "Sam Rivera", "Robin Andersson", "Jules Martin", "Kai Nakamura", "Noor Siddiqui",
        "River Okoye", "Sasha Volkova", "Eden Mizrahi", "Quinn Ó Faoláin", "Ari Tanaka", "Luca Jensen",
        "Remy Fontaine", "Taini Morningstar", "Yuki Sato",
    ],
}

CITIES = [
    "Lisboa", "Madrid", "Paris", "Berlin", "København", "Kraków", "Praha", "Київ", "Αθήνα", "İstanbul",
    "القاهرة", "תל אביב", "मुंबई", "Kolkata", "Chennai", "北京", "上海", "東京", "大阪", "서울",
    "Hà Nội", "Jakarta", "กรุงเทพฯ", "Lagos", "Nairobi", "Cape Town", "Dakar", "Honolulu", "Auckland",
    "São Paulo", "Roma", "Buenos Aires", "Dublin", "New York", "Reykjavík", "Amsterdam", "Kabul",
    "Ciudad de México", "Toronto", "Zürich",
]

INTERESTS = [
    "hiking", "climbing", "bouldering", "surfing", "sailing", "yoga", "running", "cycling", "football",
    "basketball", "chess", "go (the board game)", "poetry", "jazz", "k-pop", "opera", "techno", "vinyl",
    "cooking", "baking sourdough", "street food", "coffee", "tea ceremonies", "wine", "photography",
    "film noir", "anime", "sci-fi", "fantasy novels", "board games", "video games", "astronomy",
    "gardening", "dogs", "cats", "volunteering", "languages", "calligraphy", "pottery", "dancing",
    "salsa", "tango", "karaoke", "museums", "travel", "camping", "meditation", "open source", "history",
]

OPENERS = [
    "Weekend hiker, weekday {job}.",
    "{job} by day, amateur chef by night 🍜",
    "Moved to {city} for work, stayed for the food.",
    "Professional overthinker, part-time {job}.",
    "I'm the friend who always brings snacks 🍪",
    "Half {job}, half \"let's just see where the road goes\".",
    "Recovering perfectionist. Currently a {job} in {city}.",
    "Looking for someone to share umbrellas with ☔",
    "Born in {city}, raised on stories, powered by coffee ☕",
    "Plants: 14. Plants alive: 11. {job} of questionable skill 🌱",
]
MIDDLES = [
    "Favourite things: {a}, {b}, and long dinners that turn into breakfasts.",
    "Ask me about {a} — or {b}, if you have three hours.",
    "Currently learning {a}; failing gracefully at {b}.",
    "My friends say I'm \"too into\" {a}. They're not wrong.",
    "Green flags: {a}, {b}, kindness to waiters.",
    "Two truths and a lie: I've done {a} on three continents, I hate {b}, I can whistle in tune.",
    "If you can recommend a good book on {a}, we'll get along.",
]
CLOSERS = [
    "Swipe right if you know a good ramen place 🍥",
    "Let's get \"one quick drink\" that lasts four hours 🍷",
    "Not here for pen pals — let's actually meet!",
    "Dog person, cat tolerant 🐶",
    "Bonus points for bad puns.",
    "✨ Be kind, be curious ✨",
    "P.S. I make a great \"emergency\" playlist 🎧",
    "Currently accepting recommendations, fun facts, and memes.",
]
JOBS = [
    "nurse", "teacher", "software developer", "architect", "barista", "translator", "doctor", "lawyer",
    "graphic designer", "chef", "musician", "researcher", "electrician", "journalist", "pilot",
    "data scientist", "photographer", "carpenter", "pharmacist", "social worker",
]


def bio(city):
    interests = rng.sample(INTERESTS, 2)
    lines = [
        rng.choice(OPENERS).format(job=rng.choice(JOBS), city=city),
        rng.choice(MIDDLES).format(a=interests[0], b=interests[1]),
    ]
    if rng.random() < 0.7:
        lines.append(rng.choice(CLOSERS))
    if rng.random() < 0.15:
        return ""  # some people leave the bio empty
    return "\n".join(lines)


def make_profiles():
    profiles = [{
        "id": "demo", "name": "Demo Viewer", "age": 29, "gender": "non-binary", "city": "Lisboa",
        "bio": "The demo viewer: this is you.\nSwipe with drag, like, hate or superlike.",
        "photos": "https://photos.example.com/demo/1.jpg",
        "interests": "hiking;coffee;open source",
    }]
    pool = [(gender, name) for gender, names in NAMES.items() for name in names]
    rng.shuffle(pool)
    for number in range(1, 241):
        gender, name = pool[(number - 1) % len(pool)]
        if number > len(pool):
            # Reused names get a second given name, as real apps have many Anas.
            name = name + " " + rng.choice(["Jr.", "II", "B.", "M.", "K."])
        city = rng.choice(CITIES)
        photo_count = rng.randint(0, 4)
        pid = f"p-{number:03d}"
        profiles.append({
            "id": pid,
            "name": name,
            "age": rng.randint(18, 62),
            "gender": gender if rng.random() < 0.93 else "",
            "city": city,
            "bio": bio(city),
            "photos": ";".join(f"https://photos.example.com/{pid}/{i}.jpg" for i in range(1, photo_count + 1)),
            "interests": ";".join(rng.sample(INTERESTS, rng.randint(0, 5))),
        })
    return profiles


def timestamp(day, second):
    minutes, seconds = divmod(second, 60)
    hours, minutes = divmod(minutes, 60)
    return f"2026-11-{day:02d}T{hours:02d}:{minutes:02d}:{seconds:02d}.{rng.randint(0, 999):03d}Z"


def make_decisions(profiles):
    others = [p["id"] for p in profiles if p["id"] != "demo"]
    rows = []
    # About 30% of everyone already likes (or superlikes) the demo viewer.
    for pid in others:
        if rng.random() < 0.30:
            rows.append((pid, "demo", "superlike" if rng.random() < 0.15 else "like"))
    # Decisions among the others: some mutual, some not.
    for _ in range(900):
        viewer, target = rng.sample(others, 2)
        rows.append((viewer, target, rng.choices(["like", "hate", "superlike"], [5, 4, 1])[0]))
    # Some of those are answered in kind, so others' matches exist too.
    for viewer, target, decision in rows[-900:][:150]:
        if decision != "hate":
            rows.append((target, viewer, "like"))
    seen = set()
    out = []
    for viewer, target, decision in rows:
        if (viewer, target) in seen:
            continue
        seen.add((viewer, target))
        out.append({
            "viewer": viewer, "profile": target, "decision": decision,
            "decided_at": timestamp(rng.randint(1, 19), rng.randint(0, 86399)),
            "via": rng.choice(["drag", "drag", "button", "detail"]),
        })
    out.sort(key=lambda r: r["decided_at"])
    return out


def write(path, fields, rows):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


profiles = make_profiles()
write("seed/profiles.csv", ["id", "name", "age", "gender", "city", "bio", "photos", "interests"], profiles)
write("seed/decisions.csv", ["viewer", "profile", "decision", "decided_at", "via"], make_decisions(profiles))
