#!/usr/bin/env python3
"""Writes seed/profiles.csv and seed/decisions.csv, deterministically.

Profiles: a demo viewer (id `demo`) and 240 others with names from many
cultures and scripts, multi-line bios holding commas, quotes and emoji, photo
URLs and interests. Decisions: about 30% of the others already like or
superlike `demo` (so a first session makes matches), plus decisions among the
others so history, matches and stats have something to show.

Discovery (README "Discovery"): every profile but a few is placed in its
city (a small jitter around the city centre) and given preferences: genders
sought, an age window of +-2 to +-15 years around its own age, and for some a
farthest distance. These come from a second generator, after the first is
done, so the columns above stay as they were. seed/blocks.csv holds a few
blocks (`make run` loads them with `swipe block`). The demo viewer sees
everyone within 22-45 years, so its first deck holds well over 40 cards,
those who already like it first.

Photos (Documentation/Photos.md): the demo viewer and everyone who already
likes it (the first cards of its deck) get one or two generated pictures,
seed/photos/ID-N.png, made by scripts/make-seed-photos.py and listed here by
path relative to the CSV, which `swipe import` stores in the database; the
others keep https URLs on photos.example.com, which swipe keeps but the page
never loads (a photo on another host would be a tracking pixel).

Run from the repository root: python3 scripts/make-seed.py
"""
import csv
import random
import subprocess
import sys

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


# Where each name is at home: people live in places that fit their names
# (a Goldberg in Tel Aviv or New York, not in Ciudad de México).
HOMES = {
    ("Ana García", "Sofía Martínez", "Mateo López", "Diego Hernández", "Camila Fernández", "Tomás Ruiz"):
        ["Madrid", "Ciudad de México", "Buenos Aires"],
    ("Sam Rivera",): ["New York", "Ciudad de México"],
    ("Chloé Dubois", "Élodie Laurent", "Lucas Moreau", "Jules Martin", "Remy Fontaine"): ["Paris", "Toronto"],
    ("Zoë Müller", "Greta Schäfer", "Jonas Becker"): ["Berlin", "Zürich"],
    ("Aoife Ní Bhriain", "Seán Ó Murchú", "Isabel O'Connor", "Quinn Ó Faoláin"): ["Dublin", "New York"],
    ("Ingrid Johansson", "Robin Andersson"): ["Stockholm"],
    ("Søren Nielsen", "Luca Jensen"): ["København"],
    ("Freya Sigurðardóttir", "Björn Guðmundsson"): ["Reykjavík"],
    ("Maja Kowalska", "Piotr Nowak"): ["Kraków"],
    ("Zuzana Nováková", "Jiří Dvořák"): ["Praha"],
    ("Олена Шевченко", "Тарас Коваленко", "Анна Смирнова", "Дмитрий Иванов", "Nikolai Petrov", "Sasha Volkova"):
        ["Київ"],
    ("Ivan Horvat",): ["Zagreb"],
    ("Ελένη Παπαδοπούλου", "Γιώργος Νικολάου"): ["Αθήνα"],
    ("Ayşe Yılmaz", "Mehmet Demir", "Emre Kaya"): ["İstanbul"],
    ("فاطمة الزهراء", "نور حسن", "محمد العلي", "يوسف إبراهيم", "Omar Farouk", "Yasmin Haddad"): ["القاهرة"],
    ("נועה כהן", "אורי לוי", "Hannah Goldberg", "David Cohen", "Ayelet Ben-David", "Eden Mizrahi"):
        ["תל אביב", "New York"],
    ("प्रिया शर्मा", "राहुल वर्मा", "Ravi Shankar", "Noor Siddiqui"): ["मुंबई"],
    ("অনন্যা দাস", "অর্জুন রায়"): ["Kolkata"],
    ("தமிழ்செல்வி", "கார்த்திக்", "Priya Natarajan", "Arjun Iyer"): ["Chennai"],
    ("王芳", "李娜", "陈静", "张伟", "刘洋", "黄磊", "Wei Zhang", "Mei-Ling Chou"): ["北京", "上海"],
    ("佐藤 花子", "鈴木 美咲", "田中 太郎", "高橋 健", "Kenji Watanabe", "Kai Nakamura", "Ari Tanaka", "Yuki Sato"):
        ["東京", "大阪"],
    ("김지은", "이서연", "박민준", "최현우", "Alex Kim"): ["서울"],
    ("Nguyễn Thị Mai", "Trần Văn Minh"): ["Hà Nội"],
    ("Siti Nurhaliza", "Budi Santoso"): ["Jakarta"],
    ("สมศรี ใจดี", "สมชาย ทองดี"): ["กรุงเทพฯ"],
    ("Amara Okafor", "Chinedu Eze", "Oluwaseun Adeyemi", "River Okoye"): ["Lagos"],
    ("Kwame Mensah",): ["Accra"],
    ("Wanjiru Kamau",): ["Nairobi"],
    ("Thandiwe Nkosi", "Sipho Dlamini"): ["Cape Town"],
    ("Fatoumata Diallo", "Mamadou Diop"): ["Dakar"],
    ("Leilani Kahale", "Kalani Akana", "Keanu Kealoha"): ["Honolulu"],
    ("Aroha Ngata", "Tane Whaanga"): ["Auckland"],
    ("Mariana Silva", "João Pereira"): ["Lisboa"],
    ("Rafael Souza",): ["São Paulo"],
    ("Valentina Rossi", "Giovanni Bianchi", "Luca Ferrari"): ["Roma"],
    ("Sanne de Vries",): ["Amsterdam"],
    ("Laila Karimi", "Ahmad Rahimi"): ["Kabul"],
    ("Taini Morningstar",): ["Toronto"],
}
HOME_OF = {name: cities for names, cities in HOMES.items() for name in names}
home_rng = random.Random(20261124)


def home_city(name):
    """A city that fits `name` (a reused name's suffix, "Jr.", is not part of it)."""
    base = name
    for suffix in (" Jr.", " II", " B.", " M.", " K."):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
    return home_rng.choice(HOME_OF[base])


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
        rng.choice(CITIES)  # drawn still, so every later draw of the seed stays as it was
        city = home_city(name)
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


CITY_PLACES = {
    "Lisboa": (38.7223, -9.1393), "Madrid": (40.4168, -3.7038), "Paris": (48.8566, 2.3522),
    "Berlin": (52.52, 13.405), "København": (55.6761, 12.5683), "Kraków": (50.0647, 19.945),
    "Praha": (50.0755, 14.4378), "Київ": (50.4501, 30.5234), "Αθήνα": (37.9838, 23.7275),
    "İstanbul": (41.0082, 28.9784), "القاهرة": (30.0444, 31.2357), "תל אביב": (32.0853, 34.7818),
    "मुंबई": (19.076, 72.8777), "Kolkata": (22.5726, 88.3639), "Chennai": (13.0827, 80.2707),
    "北京": (39.9042, 116.4074), "上海": (31.2304, 121.4737), "東京": (35.6762, 139.6503),
    "大阪": (34.6937, 135.5023), "서울": (37.5665, 126.978), "Hà Nội": (21.0278, 105.8342),
    "Jakarta": (-6.2088, 106.8456), "กรุงเทพฯ": (13.7563, 100.5018), "Lagos": (6.5244, 3.3792),
    "Nairobi": (-1.2921, 36.8219), "Cape Town": (-33.9249, 18.4241), "Dakar": (14.7167, -17.4677),
    "Honolulu": (21.3069, -157.8583), "Auckland": (-36.8485, 174.7633), "São Paulo": (-23.5505, -46.6333),
    "Roma": (41.9028, 12.4964), "Buenos Aires": (-34.6037, -58.3816), "Dublin": (53.3498, -6.2603),
    "New York": (40.7128, -74.006), "Reykjavík": (64.1466, -21.9426), "Amsterdam": (52.3676, 4.9041),
    "Kabul": (34.5553, 69.2075), "Ciudad de México": (19.4326, -99.1332), "Toronto": (43.6532, -79.3832),
    "Zürich": (47.3769, 8.5417), "Stockholm": (59.3293, 18.0686), "Zagreb": (45.815, 15.9819),
    "Accra": (5.6037, -0.187),
}

discovery_rng = random.Random(20261123)


def add_discovery(profiles):
    """Places and preferences, from their own generator (see the docstring)."""
    for profile in profiles:
        if profile["id"] == "demo":
            lat, lon = CITY_PLACES["Lisboa"]
            profile.update(lat=lat, lon=lon, seeking="", age_min=22, age_max=45, max_km="")
            continue
        if discovery_rng.random() < 0.95:
            lat, lon = CITY_PLACES[profile["city"]]
            profile["lat"] = round(lat + discovery_rng.uniform(-0.05, 0.05), 5)
            profile["lon"] = round(lon + discovery_rng.uniform(-0.05, 0.05), 5)
        else:
            profile["lat"] = profile["lon"] = ""  # a few keep their place to themselves
        roll = discovery_rng.random()
        if roll < 0.45:
            profile["seeking"] = ""  # everyone
        elif roll < 0.75:
            profile["seeking"] = discovery_rng.choice(["female", "male", "non-binary"])
        else:
            profile["seeking"] = ";".join(discovery_rng.sample(["female", "male", "non-binary"], 2))
        spread = discovery_rng.randint(2, 15)
        age = profile["age"]
        profile["age_min"] = max(18, age - spread - discovery_rng.randint(0, 10))
        profile["age_max"] = min(120, age + spread + discovery_rng.randint(0, 10))
        distance = discovery_rng.random()
        profile["max_km"] = "" if distance < 0.6 or profile["lat"] == "" else discovery_rng.choice([50, 300, 2500, 10000])
    return profiles


def make_blocks(profiles, decisions):
    """A few blocks: one liker of demo blocks demo (demo never sees them), demo
    blocks one profile, and a few among the others."""
    likers = sorted({d["viewer"] for d in decisions if d["profile"] == "demo"})
    others = [p["id"] for p in profiles if p["id"] != "demo"]
    blocks = [(likers[3], "demo"), ("demo", others[7])]
    for _ in range(4):
        blocks.append(tuple(discovery_rng.sample(others, 2)))
    return [{"blocker": a, "blocked": b} for a, b in dict.fromkeys(blocks)]


def write(path, fields, rows):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def add_pictures(profiles, decisions):
    """Generated pictures for demo and its likers, in place of their URLs
    (as many as they had, one at least and two at most); the pictures are
    written by make-seed-photos.py."""
    likers = {d["viewer"] for d in decisions if d["profile"] == "demo"}
    wanted = []
    for profile in profiles:
        pid = profile["id"]
        if pid != "demo" and pid not in likers:
            continue
        had = len(profile["photos"].split(";")) if profile["photos"] else 0
        count = max(1, min(2, had))
        profile["photos"] = ";".join(f"photos/{pid}-{i}.png" for i in range(1, count + 1))
        wanted += [f"{pid}:{i}:{profile['name'][0]}" for i in range(1, count + 1)]
    subprocess.run([sys.executable, "scripts/make-seed-photos.py", *wanted], check=True)


profiles = make_profiles()
decisions = make_decisions(profiles)
add_pictures(profiles, decisions)
add_discovery(profiles)
write("seed/profiles.csv", ["id", "name", "age", "gender", "city", "bio", "photos", "interests",
                            "lat", "lon", "seeking", "age_min", "age_max", "max_km"], profiles)
write("seed/decisions.csv", ["viewer", "profile", "decision", "decided_at", "via"], decisions)
write("seed/blocks.csv", ["blocker", "blocked"], make_blocks(profiles, decisions))
