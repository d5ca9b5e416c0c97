"""Chinese rejection constructions ("不喜欢X", "X就算了", "把X换成Y") and the core of the
option they name."""

from __future__ import annotations

import re

from .construction_parts import Construction
from .text import CJK, CJK_CHAR_RE, ZH_ACKNOWLEDGEMENT, ZH_HALF_NOT, ZH_LATIN_NAME

# -- Chinese ---------------------------------------------------------------------------------
_ZH_NAME = ZH_LATIN_NAME
_ZH_O = rf"(?P<opt>{_ZH_NAME}(?:\s{_ZH_NAME}){{0,2}}[{CJK}]{{0,4}}?|[{CJK}]{{1,10}}?)"
_ZH_END = r"(?=[了吧呢啊嘛，,。.！!？?；;、：:\s也又还都就]|因为|由于|所以|太|$)"
_ZH_VERBS = (
    r"(?:用|使用|吃|喝|坐|去|住|买|选|订|报|带|看|穿|养|开|玩|考虑|碰|做|搞|请|找|租|走|折腾|弄)"
)
_ZH_AVERSION_RE = re.compile(
    rf"(?<!不)(?:讨厌|不喜欢|不太喜欢|不怎么喜欢|不爱|受不了|忍受不了|反感|(?<![麻厌])烦(?![请得死人])|{ZH_HALF_NOT}想|不愿意|[不唔]肯(?!定)|"
    rf"(?:不让|不许)(?:我们?|孩子|他们?|她们?)?|不允许|禁止|不能?接受|无法接受|接受不了|没法接受|受够了|戒了|戒掉|不打算|没打算|拒绝|"
    rf"(?:别|不要)(?!的)(?:再|也)?(?:给|帮|跟|替)?(?:我们?|咱们|他们?|她)?(?:推荐|安排|介绍))"
    # "不想再用微信群了" (再 before a verb of using; "不想再重蹈覆辙" is no option).
    rf"(?:(?:再|也)(?={_ZH_VERBS}))?{_ZH_VERBS}?\s*{_ZH_O}{_ZH_END}"
)
# "我不吃辣", "他不喝酒": a standing dietary rule (a single character is a whole option here).
# "不坐飞机", "不穿高跟鞋": a standing rule about travel or clothes reads the same way.
_ZH_DIET_RE = re.compile(
    rf"(?<![要吃坐穿])不(?:吃|喝|坐|穿)(?P<opt>[{CJK}]{{1,6}}?)(?=[了的，,。.！!；;]|$)"
)
# "我对它是真的无感": degree words between the thing and the verdict.
_ZH_ADVERB_BEFORE_VERDICT = r"(?:真的|实在|确实|完全|一直|向来|其实|就|也|都)*"
_ZH_NOT_INTERESTED_RE = re.compile(
    rf"对{_ZH_O}(?:是)?{_ZH_ADVERB_BEFORE_VERDICT}(?:不感兴趣|没(?:有)?兴趣|没好感|不感冒|无感|没感觉)"
)
_ZH_ALLERGY_RE = re.compile(rf"对{_ZH_O}过敏|(?P<opt2>(?:(?!对)[{CJK}]){{1,6}}?)(?:过敏|不耐受)")
_ZH_CANNOT_RE = re.compile(
    rf"(?:不能|不可以|没法|无法)(?:吃|喝|碰|有|用|坐|买)(?:任何)?{_ZH_O}{_ZH_END}"
    rf"|(?:吃|喝|用)不了{_ZH_O.replace('opt', 'opt3')}{_ZH_END}"
)
_ZH_CANNOT_SUFFIX_RE = re.compile(
    rf"(?P<opt>{_ZH_NAME}|[{CJK}]{{1,8}}?)的?(?:一律|都|也|绝对|完全)?(?:不能|没法|不可以|无法)"
    r"(?:吃|喝|碰|买|用|使用)"
)
# The option first, as the topic, and a negative comment on it: "线上课我们不想报", "牛肉我也想
# 避开", "宋城那种大型演出他们实在喜欢不起来", "爬山就免了吧". Topic, an optional experiencer
# (the speaker or someone planned for), adverbs of degree or scope, then one predicate of the
# class "turned down", at the end of the clause (sentence-final particles allowed).
ZH_EXPERIENCER = (
    r"(?:我们家|咱们?家|我们?|咱们|他们?|她们?|我(?:爸|妈|老婆|老公|家人|家|女儿|儿子|媳妇儿?|爱人|阿妈|阿爸|老豆|老妈|老爸|奶奶|爷爷|外婆|外公|姥姥|"
    r"姥爷|婆婆|公公|阿嫲|阿爷)|他爸|他妈|爸妈|父母|家里人?|孩子|老人|"
    r"老板|领导|客户|女朋友|男朋友|对象|我方|我司|本司|本方|本团|本團)"
)
_ZH_PERSON_RE = re.compile(
    rf"{ZH_EXPERIENCER}|(?:我们?|咱|家里)?家?的?(?:孩子|小孩|宝宝|女儿|儿子|老人|室友|同事|朋友)们?"
)
# Scope and time adverbs between a topic and its comment ("爬山基本不行", "纯外教的以后都不考虑了"):
# read after the topic, and cut from a topic a greedy match took them into.
_ZH_SCOPE_AND_TIME = r"基本上?|以后|今后|往后|这次|这回|本次|此次|目前"
ZH_ADVERB = (
    rf"(?:其实|真的|实在|确实|完全|根本|{_ZH_SCOPE_AND_TIME}|一[点滴口次眼步下个](?:也|都)|"
    r"也|亦|都|就|还是|倒是|是|向来|从来|一直|再也|坚决|已经|已|早就|早已|"
    r"绝对|肯定|打死也|死活|先|暂时|暂且|暂|就先|直接|果断|一律|一概|统统|全部|整个|原则上|想了想|想想|恐怕)"
)
_ZH_TURNED_DOWN = (
    rf"(?:{ZH_HALF_NOT}(?:想|愿意|喜欢)再?(?:用|去|要|买|选|看|吃|喝|住|坐|报|玩|穿|搞|弄|试|找|请|碰|做|学|练|开)?|"
    # A formal "not accepted", "no such need, kindly remove", a resisting elder (好抗拒).
    r"(?:一律|一概)?不予(?:接受|采纳)|无此需要|(?:烦请|请)?剔除|(?:好|很|非常|特别|比较)?抗拒|"
    # "(我妈应该)撑不住": 不住 after a verb is "cannot hold", no refusal to stay.
    r"不(?:去|用|要|买|选|看|吃|(?<![撑撐忍记記靠站挡擋守顶頂抓稳穩保憋扛坐挺接拦控管盯留镇]不)住|坐|报|玩|穿|喝|放心|学|练|租|订|办|装|养|请|找|做|换|碰|沾|搞|整|弄|申请?)|"
    # A potential complement negated: "(纽扣电池她)换不了" — but 少不了/离不了 need it.
    r"(?![少免错忘离受承退])[\u4e00-\u9fff]不了|没意思|没劲|(?:看|吃|玩|用|听|住)?腻了|"
    r"喜欢不起来|提不起兴趣|没兴趣|不感兴趣|不考虑|不用(?:再)?(?:考虑|看|想|谂)|"
    r"不(?:同意|乐意|答应)|不敢(?:找|用|买|去|坐|吃|住|请|试|碰|选|报)|(?:可以)?(?:划掉|删掉|砍掉|拿掉|排除掉?)|"
    r"想避开|要避开|避开|不(?:太|怎么|大)?感冒|劝退|别(?:再)?(?:给我们?推荐?|推荐)了?|吃不惯|用不惯|住不惯|看不惯|玩不来|吃腻了|腻了|受够了|接受不了|"
    r"承受不了|受不了|不在考虑范围内?|不在考虑之内|不予考虑|(?:一律|一概)不要|没必要(?:再|另外)?(?:[\u4e00-\u9fff]了)?|用不上|用不着|不用(?:再|另外)?[\u4e00-\u9fff]了|不(?:再|另外)?(?:加|开|搭|排|投|配|建|招|续)了|(?:一律|一概)?不接|(?:最|好|超)?憎|不太合适|不合适|"
    # "高铁方案不太适合本团": a formal letter says who it does not suit.
    r"不(?:太|大|怎么)?(?:适合|適合)(?:我们?|他们?|她|他|孩子|老人|本团|本團|本人|我家|咱们?)?|就?(?:pass|drop|skip)|免[了啦咯喇]|饶了我吧?|算[了啦咯喇]|不要了|不用了|不需要了|"
    r"不去了|不买了|不选了|不看了|不报了|拉倒|看不上|不靠谱|不(?:太|大)?行|不折腾了?|"
    # "don't even think of it": 想都别想, 别寻思了, 甭想了, 别惦记了.
    r"想都别想|(?:别|甭)(?:想|寻思|惦记|琢磨|肖想|奢望)了|"
    # "酒店那种就别整了": 整/弄/搞 are the north's "do, set up"; "never again" typed in English.
    r"(?:别|甭)(?:再)?(?:整|弄|搞)了|never\s+again|"
    # "no way" and "not needed" verdicts, and Cantonese 唔 (= 不): 门都没有, 免谈, 没门, 作废,
    # 不必了, 唔好啦, 唔要, 唔使.
    r"门都没有|免谈|没门|作废|不必了|唔(?:好|要|使|考虑|去|买|用|想|係好想|系好想|鍾意|钟意)|"
    # Banned where the user lives: "鞭炮市区禁放", "电动车小区禁停".
    r"禁(?:放|用|售|养|烧|停|入|带)|"
    # "携程已经拉黑了", "宜家我是不会选的", "别墅区是雷区": blacklisted, never chosen, a minefield.
    r"拉黑了?|不(?:太|大)?现实|(?:超|很|非常|坚决|强烈)?反对|(?<=[\u4e00-\u9fff]\s)(?i:no|nope|nah)(?:\s+(?i:thanks|way))?|不(?:再)?(?:惦记|琢磨)了?|"
    # "濑尿虾我阿妈见到都怕": dreaded on sight.
    r"(?:见到|看到|看见|听到|一听|听着|看着)(?:就|都)?(?:怕|烦|头疼|头痛|心烦)|"
    # "伏見稻荷先跳过", "宋PLUS告辞" (netizens' "I'm out"), a formal "暂不纳入本次选型范围".
    r"跳过|告辞|不(?:再)?(?:纳入|列入)(?:本次|此次|这次)?(?:[\u4e00-\u9fff]{0,4}范围)?|不会再?(?:选|买|去|用|考虑|请|报|住|坐|吃|找)|是(?:个|大)?(?:雷区?|坑))"
    r"(?<!预算了)"
)
_ZH_TURNED_DOWN_KEYS = (
    "想愿喜考避感惯腻够受要必上合适pass排免算去买选看报拉靠行来兴门废唔"
    "学练租订办装养请找做换了意劲劝荐碰沾同乐答敢划删砍拿啦咯喇推申折禁鍾钟係系黑会雷坑现跳辞纳列怕烦疼痛整弄搞予此剔拒概反接憎着nN"
)
_ZH_TOPIC_FIRST_RE = re.compile(
    # One character is a noun too ("鱼不要", "酒不喝"), unless a pronoun or an adverb.
    # "那 TeamCity 就拉倒吧": a leading "then" and the space typed around a latin name.
    # An interjection first ("hmm OK 那 Zoom 算了", "嗯 那个就算了") is no topic.
    rf"^(?:(?i:hmm+|ok(?:ay)?|oh|ah|well)[\s,，.…]*|(?:嗯+|哦+|噢|额|呃)[\s,，.…]*)*"
    # "將軍澳ok 但日出康城就免啦": what follows a spoken "but" is a clause of its own.
    r"(?:[^，,。；;]*?\s(?:但是?|不过|可是)\s?)?"
    rf"(?:(?:比如|例如|譬如)\s*(?:那个|这个)?\s*)?(?:那(?:就\s*|\s+))?(?P<opt>{_ZH_NAME}(?:\s{_ZH_NAME}){{0,2}}(?:\s?[{CJK}]{{0,4}}?)|[{CJK}]{{1,3}}{_ZH_NAME}|(?:(?![我他她佢]|(?<!迷)你)[{CJK}]){{2,10}}?|(?![我你他她它佢这那谁都也亦就还先再又可应已暂])[{CJK}])\s*"
    r"(?:那种|这种|那个|这个|那些|这类|之类的?|[这那](?:个|套)?(?:方案|选项|路子|东西)|[这那](?:条|一)?(?:线|路|块))?"
    # A topic marker and a spoken filler: "华硕的话emmm还是算了" (a condition is read apart).
    r"(?:的话|嘛)?\s?(?:(?i:e+m+|hmm+)|嗯+|额+|呃+)?\s?"
    # The people who judged: an experiencer, 大家, or any noun plural in 们 ("同事们觉得没意思"),
    # and how they judged ("即热的我看就算了吧").
    rf"(?:(?:{ZH_EXPERIENCER}|大家|[{CJK}]{{2}}(?<![我你他她它咱])们)(?:都)?(?:觉得|感觉|看)?)?{ZH_ADVERB}*\s?{_ZH_TURNED_DOWN}"
    # "鱼我是不碰的": 是…的 says it of the speaker's habit.
    r"(?:报|用|买|去|吃|选|要|玩|看|上)?\s?[了吧啊呀哈嘛啦咯喇]*(?:(?<=[碰沾吃喝去用买选虑请报住坐找])的)?(?=[，,。.！!；;]|$)"
)
_ZH_EXCEPT_ALL_RE = re.compile(
    # Cantonese too: "除咗牛肉其他乜都得".
    rf"除(?:了|咗)\s*{_ZH_O}(?:以外|之外)?[，,]?\s*(?:(?:其他|其它|别的)(?:的)?[{CJK}]{{0,4}}?)?(?:什么|啥|乜嘢?)?(?:都|全都|全)"
    r"(?:可以|行|好|没问题|能接受|OK|ok|随便|得(?=[，,。.！!；;~～]|$))"
    # "我想先申G5以外的": what is wanted is everything but the option.
    rf"|(?:申请?|选|找|要|考虑|看|买|去|订|推荐)(?P<opt2>{_ZH_NAME}|[{CJK}]{{2,6}}?)(?:以外|之外)的"
)
# A verb after 不需要 names a thing to do without ("不需要加图表"); "不需要实时，T+1就够了"
# lowers a bar instead, and is left to the requirement reader.
_ZH_NOT_NEEDED_RE = re.compile(
    rf"(?:不需要|用不着|不必|没必要|不安排|不要安排|别安排|不搞|不设)(?:加|用|买|带|订|要|请|报|找|配)?"
    rf"(?:一?整套|全套)?\s*{_ZH_O}{_ZH_END}"
)
_ZH_NOT_NEEDED_SUFFIX_RE = re.compile(
    # "packaging service 用不着": a latin name of a few words, a space typed before the verdict.
    rf"(?P<opt>{_ZH_NAME}(?:\s{_ZH_NAME}){{0,2}}|[{CJK}]{{1,8}}?)\s?(?:就|也|都)?(?:不需要|不用|免|(?<![较更很挺太最多])省|用不着|用不上)了?"
    r"[吧啊呀哈]*(?=[，,。.！!；;]|$)"
)
_ZH_REPLACE_RE = re.compile(
    # "把阳台改成书房" converts the balcony (it stays); "把MySQL改成PostgreSQL" swaps a product.
    rf"把{_ZH_O}(?:换成|替换成|换为)|把(?P<opt6>{_ZH_NAME}(?:\s{_ZH_NAME}){{0,2}})改成"
    rf"|用\S{{1,10}}?(?:代替|替代|取代){_ZH_O.replace('opt', 'opt2')}{_ZH_END}"
    rf"|从{_ZH_O.replace('opt', 'opt3')}(?:换|改|切换|迁移|转)到"
    # "把 CI 从 Jenkins 迁走": moved away from, wherever it goes.
    rf"|从\s*{_ZH_O.replace('opt', 'opt7')}\s*(?:迁走|迁出|搬走|撤出|撤走)"
    rf"|与其{_ZH_O.replace('opt', 'opt4')}(?:，|,)?不如"
    rf"|本来(?:想|打算|要)(?:买|用|去|选|吃|订|报)?{_ZH_O.replace('opt', 'opt5')}[，,]\s*算了"
)
_ZH_WITHDRAW_RE = re.compile(
    rf"(?:取消|不再|再也不|不会再)(?:用|吃|去|坐|买|住|选)?{_ZH_O}{_ZH_END}"
    # "打死不去横店": a vow needs its verb ("绝对不能有芒果" is a limit, read elsewhere).
    rf"|(?:打死(?:也)?不|死也不|坚决不|绝对不)(?:用|吃|去|坐|买|住|选|找|请|报|碰|租)(?P<opt12>{_ZH_NAME}|[{CJK}]{{2,8}}?){_ZH_END}"
    # "跟健身房说拜拜了": a goodbye said to the thing.
    rf"|(?:跟|和|向)(?P<opt11>{_ZH_NAME}|[{CJK}]{{2,8}}?)(?:说|say)\s*(?:拜拜|再见|bye|byebye|goodbye)"
    # "不买燃油车了", "不坐旅游大巴了": a changed plan (了), not a habit.
    # "今年不打麻将了", "不放烟花了": any verb of doing, playing or having a thing.
    # (Not 打算 "plan", 打听, 放心, 放弃, 学习: words of their own.)
    rf"|(?<![要用])不(?!打[算听扰折开工包]|放[心弃松假]|学习|抽空)(?:买|坐|选|订|报|住|开|养|租|去|申|申请|投|"
    rf"打|放|玩|学|练|抽|喝|吃|办|搞|种|骑|爬|踢|唱|跳|滑|追|送|戴|穿|摆|走|参加|报名)(?P<opt3>{_ZH_NAME}|[{CJK}]{{2,8}}?)了"
    # "我们家说好不放鞭炮": a plan agreed, with or without 了.
    rf"|(?:说好|说定|决定|商量好|约好|讲好|定好)了?(?:今年|这次|以后)?(?:就|都|也)?不(?:放|打|办|请|摆|送|收|"
    rf"买|去|吃|喝|用|搞|订|烧|玩)(?P<opt10>{_ZH_NAME}|[{CJK}]{{2,8}}?){_ZH_END}"
    rf"|把(?P<opt4>{_ZH_NAME}|[{CJK}]{{1,8}}?)(?:去掉|删掉|拿掉|划掉|取消)"
    # "那就换掉皇家", "划掉第二个": the verb first, then what goes.
    rf"|(?:换掉|去掉|删掉|拿掉|划掉|砍掉|撤掉)(?P<opt7>{_ZH_NAME}|[{CJK}]{{2,8}}?){_ZH_END}"
    # "那就不自建了", "就不跟团了": a plan given up, its verb phrase the option.
    rf"|(?:那就|就|那)不(?P<opt8>(?!考虑|需要|麻烦|打扰|客气|多说|啰嗦|纠结|强求|折腾|惦记|琢磨|做梦|一|"
    # "就不用担心了" needs nothing; "就不开心了", "就不划算了" say how it would be, no plan.
    rf"用|开心|高兴|舒服|方便|便宜|难受|划算|合适|值得|够|好|错|怕|累)[{CJK}]{{2,4}}?)了"
    r"(?=[，,。.！!；;]|$)"
    # "剪映卸了", "啤酒也戒了": an app uninstalled, a subscription cancelled, a habit dropped.
    rf"|(?P<opt5>{_ZH_NAME}|[{CJK}]{{2,8}}?)(?:要|得|都|就|也)?(?:换掉|删掉|去掉|拆掉|扔掉|撤掉|取消|卸载|卸掉|卸|删|"
    r"退订|戒掉|戒)"
    r"(?:吧|了)?(?=[，,。.！!；;]|$)"
    # "虾滑什么的就别买了", "芒果布丁都别点了": any one-character verb after 别 ends the clause.
    # "boarding 的学校也别推荐了": a latin name can qualify the noun.
    # "那种必须连app才能操作的也别推荐了": the kind described, whatever the words.
    rf"|那种(?P<opt9>[^，,。！!？?]{{2,16}}?的[{CJK}]{{0,4}}?)(?:也|都|就|千万|可)?(?:别|不要)再?(?:推荐|考虑|买|选|给我们?|整|搞|弄)"
    rf"|(?:别|不要)(?:再)?(?:整|搞|弄|推荐|买|选|找|给我们?推荐?)那种(?P<opt13>[^，,。！!？?\s]{{2,16}}?的[{CJK}]{{1,4}}?){_ZH_END}"
    rf"|(?P<opt2>{_ZH_NAME}(?:\s?的[{CJK}]{{1,4}})?|[{CJK}]{{2,8}}?)(?:就|也|都|还是)?(?<!特)(?:别(?![的人处家等急墅针具])|不要)再?(?:考虑|推荐|[{CJK}])"
    r"了?(?=[，,。.！!；;]|$)"
)
# An English "no X" inside a Chinese clause ("医生说 no seafood", "今年 no 烟花"): code-switched
# speech refuses in the other language.
_ZH_LATIN_NO_RE = re.compile(
    r"(?<![A-Za-z'])(?:no|No|NO)\s+(?!(?:problem|problems|worries|worry|way|idea|thanks|need|"
    r"pressure|rush|doubt|kidding|big\s+deal|matter|comment|offen[cs]e|issues?|complaints?)\b)"
    rf"(?P<opt>[A-Za-z][\w-]*(?:\s[A-Za-z][\w-]*){{0,2}}|[{CJK}]{{1,6}}?)(?=\s*[，,。.！!；;、]|\s*$)"
)
# "踩过链家的雷": a mine stepped on, a pit fallen into.
_ZH_STEPPED_ON_RE = re.compile(rf"踩(?:过|了)(?P<opt>{_ZH_NAME}|[{CJK}]{{2,8}}?)的(?:雷|坑)")
_ZH_BAD_EXPERIENCE_RE = re.compile(
    rf"(?:用过|试过|吃过|去过|住过|坐过|买过|报过|请过|上过|住)(?:某|一个|一家)?"
    rf"(?P<opt>{_ZH_NAME}|[{CJK}]{{2,8}}?)[，,]?(?P<eval>[^。！!；;]*)"
)
ZH_NEGATIVE_EVAL_RE = re.compile(
    # "麻烦你再帮我们找个…", "麻烦把车牌发给我" ask politely; "没有其它问题了" is content: neither
    # complains. "太麻烦了", "麻烦死了" do.
    r"差|糟|噩梦|失望|后悔|烂|坑|坏了|推脱|太慢|不好用|不结实|(?<!没)(?<!没有)(?<!其它)(?<!其他)(?<!别的)问题|"
    r"(?:太|很|好|真|挺|特别|比较|有点|有些)麻烦|麻烦(?:了|死|得很)|踩雷|难吃|难用|不靠谱|上当|吃亏|"
    r"换个|换一个|加价|受不了|不行|没用|浪费|投诉|退款|吵|脏|超预算|超出预算|太贵|"
    # What went wrong, said as what happened: 吃完吐了三天, 钱退不了, 一句听不懂, 三天两头进修理厂.
    r"吐了|拉肚子|拉稀|翻车|智商税|不值|白花|白扔|白买|退不了|退不掉|听不懂|没效果|不管用|出毛病|"
    r"进修理厂|返修|掉链子|发呆|崩了|老是崩|闪退|卡顿|卡死|死机"
)
ZH_HEDGE_RE = re.compile(
    # "也不是不能吃": a double negation keeps the option.
    r"不确定|不太确定|要不要|再想想|也许|可能|考虑一下|不一定|不介意|不排斥|(?:不是|并非|没有)不"
    r"|不排除|未必|(?:并无|没有?|毫无)(?:成见|意见)|不反对"
    # "雨虹也没得啥子不好": nothing wrong with it (in 四川 speech too).
    r"|没(?:得|有)?(?:啥子?|什么|哪里)不(?:好|行|妥)|再琢磨"
)
ZH_LEAD_RE = re.compile(
    r"^(?:所以|因此|但是|但|不过|可是|而且|然后|另外|还有|其实|[那这]几[家个款]|[那这]些|我(?:妈|爸|老婆|老公|家)|我们?|咱们|他们?|她们?|"
    r"这种|那种|这个|那个|[那这][家间款个]|那|对|某)+"
)


# A time, a price, the weather or a condition is what a constraint is about, never an option
# turned down: "周末不行" limits when, "这个价格不太合适" bargains, "天气不好的话就算了" hedges.
_ZH_NOT_TOPIC_RE = re.compile(
    r"(?:价格|价钱|预算|时间|天气|周末|工作日|晚上|白天|早上|上午|下午|今天|明天|后天|这周|下周|"
    r"^本次|^此次|^这次|^这回|"
    r"周[一二三四五六日]|星期[一二三四五六日天]|身体|距离|的话|是|不是|也不是|觉得|感觉|认为)$"
    # A bound on a time or an amount is a limit ("晚上八点以后的也不行", "三千以上的不行").
    r"|(?:以后|之后|以前|之前|以上|以下|以内|之内)$"
    # "出了青岛都不考虑", "除了青岛都不考虑": all but the place are turned down; it is wanted.
    r"|^(?:除了|除去|除开|出了)"
    # "死也不要住那种地方": "that kind of place" points back at the topic, it names nothing.
    r"|^(?:住|去|用|吃|买|坐)?[那这](?:种|个|类)(?:地方|东西|玩意儿?)$"
    # "甲方那边(死活不同意)": a party, the one who judges, not what is judged.
    r"|^(?:甲方|乙方|客户|公司|领导|老板|财务|法务|IT|学校|物业)(?:那边|这边|那头)?$|(?:那边|这边)$"
    # "呢条路我唔行喇": "this road" is the way just told, not a thing to turn down.
    r"|^(?:呢|嗰|这|那)(?:条|个|种)(?:路|方法|办法|做法)$"
    rf"|{ZH_ACKNOWLEDGEMENT}"
    # A degree adverb or "一…就" makes a predicate of it ("一出去就有点收(不住了)").
    r"|有点|一[\u4e00-\u9fff]{1,3}就|^有没"  # "有没包装(都不行)": with it or without
    r"|^(?:如果|要是|假如|万一)|^(?:烦请|千万|一定|务必|可千万|绝对|坚决|肯定|实在|真的|确实|根本|完全|当然|其实|压根|一律|死活|打死|已经|早就|刚刚|刚才)$|"
    # Who said it ("我女儿说(不要去)"): reported speech, not its object; when a story happened.
    r"(?<![小传听解])说$|(?:讲|表示|建议)$|^(?:前年|去年|今年|明年|那年|当年|前几年|这几年|小时候)$|^(?:五一|十一|国庆|春节|元旦|[一二三四五六七八九十两\d]+(?:月|号|日|点|天|年|周|个月))"
)


# A topic read up to the comment can carry who and when: "长毛猫我", "上次徒步好几个人".
_ZH_TRAILING_EXPERIENCER_RE = re.compile(rf"(?:{ZH_EXPERIENCER}|大家|好几个人|几个人|有人)$")
# "(我)妈说晚上十点以后(别开)": who said it is no part of what was said.
_ZH_REPORTED_RE = re.compile(
    r"^[\u4e00-\u9fff]{0,3}?(?:妈|爸|婆|公|生|友|们|他|她|事|师|娘)(?:说|讲)(?=[\u4e00-\u9fff]{2})"
)
_ZH_LEADING_TIME_RE = re.compile(r"^(?:上次|之前|以前|去年|那次|早年|最近|平时)")


# "国际园学费", "那家的服务": what is judged about the option, not the option.
_ZH_ATTRIBUTE_RE = re.compile(
    r"的?(?:价格|价钱|学费|费用|房租|租金|质量|服务|口味|环境|位置|距离|味道|体验|配置|设计|颜色|"
    r"做工|售后)$"
)


# Adverbs that open the comment, read with the topic by a greedy match: "那家店肯定(不行)".
_ZH_TRAILING_ADVERB_RE = re.compile(
    r"(?:肯定|绝对|真的|实在|确实|完全|根本|压根|一定|当然|其实|也|都|就|还是|倒是|太|有点|一律|一概|"
    rf"{_ZH_SCOPE_AND_TIME})+$"
)
# "那家店": a demonstrative and a classifier before a one-character noun are the whole name.
_ZH_DEMONSTRATIVE_NOUN_RE = re.compile(rf"^[那这](?:家|间|款|个|种|位|所)[{CJK}]$")


def zh_option_core(raw: str) -> str:
    """A Chinese option phrase without the who, when and particles around it."""
    raw = _ZH_TRAILING_ADVERB_RE.sub("", raw.strip()) or raw.strip()
    if _ZH_DEMONSTRATIVE_NOUN_RE.match(raw):
        return raw
    phrase = ZH_LEAD_RE.sub("", raw).strip("的 ")
    phrase = _ZH_REPORTED_RE.sub("", phrase)
    phrase = _ZH_LEADING_TIME_RE.sub("", phrase)
    phrase = re.sub(r"^等(?=[\u4e00-\u9fff]{2})", "", phrase)  # "RDS、Aurora等公有云…": etc.
    # "虾滑什么的": 虾滑; "酒店那种": 酒店.
    phrase = re.sub(r"(?:什么的?|之类的?|这些|那些|等等|[那这](?:种|类|套|个|款|家))$", "", phrase)
    bare = _ZH_ATTRIBUTE_RE.sub("", phrase)
    phrase = bare if len(bare) >= 2 else phrase
    shorter = _ZH_TRAILING_EXPERIENCER_RE.sub("", phrase).strip("的 ")
    return shorter if len(shorter) >= 2 or not CJK_CHAR_RE.search(shorter) else phrase


def not_a_zh_topic(phrase: str) -> bool:
    return bool(_ZH_NOT_TOPIC_RE.search(phrase)) or bool(_ZH_ATTRIBUTE_RE.fullmatch(phrase))


# An aspect marker makes a clause of the phrase ("吃了一个月"), not a noun phrase; a final 得
# is a degree ("迷得不行": crazy about it).
_ZH_ASPECT_RE = re.compile(r"[了着]|(?<=[吃用试去住坐买看玩])过|得$")


# An aspect marker inside a phrase, something after it: "同事骑了半年电池" tells what happened
# ("二手书太贵了" ends on it: the verdict taken into the subject).
_ZH_TOLD_RE = re.compile(r"[了着过](?=[\u4e00-\u9fff\d])")


def not_a_zh_subject(phrase: str) -> bool:
    """No topic, or a told clause ("同事骑了半年电池(就不行了)"), not a thing's name."""
    return not_a_zh_topic(phrase) or bool(_ZH_TOLD_RE.search(phrase))
ZH_NOT_OPTIONS = frozenset(
    "考虑 使用 选择 采用 列入 纳入 并非 并不 不是 不系 "
    "东西 这个 那个 这种 那种 它 他 她 推荐 说 了 的 吧 呢 啊 这样 那样 这么 那么 这些 那些 "
    "一切 什么 全部 都 牌子 品牌 地方 折腾 麻烦 操心 费劲 有 没有".split()
)


_ZH_IF_RE = re.compile(r"如果|要是|假如|万一")
# "X的话" is a condition ("天气热的话", "签证没下来的话") unless X is a bare name, which it then
# sets as the topic ("华硕的话emmm还是算了", "零跑的话，…，已拉黑"): no negation, degree, modal,
# aspect, weather or action word in it.
_ZH_TOPIC_DEHUA_RE = re.compile(
    rf"^(?:那|那么|至于)?\s*(?P<x>{_ZH_NAME}(?:\s{_ZH_NAME})?|"
    rf"(?:(?![不没别太很挺要想能会够了过着得是在有热冷高低贵快慢下拍砸做搬换晒堵])[{CJK}]){{1,6}})\s*的话"
)


def is_zh_condition(clause: str) -> bool:
    """The clause states a condition ("预算不够的话", "如果下雨"), under which alone what
    follows holds."""
    if _ZH_IF_RE.search(clause):
        return True
    if "的话" not in clause:
        return False
    topic = _ZH_TOPIC_DEHUA_RE.match(_strip_lead(clause))
    # "预算的话五千以内吧…": the budget is what a limit is about, never an option's topic.
    return topic is None or not_a_zh_topic(topic.group("x"))


def _strip_lead(clause: str) -> str:
    return re.sub(r"^[\s,，。.!！]+", "", clause)
# A coverb and a person ("和别人共用": share with others) open an action with a partner;
# one with a modal inside ("酒店要能免费") is a clause stating a need. Neither is an option.
_ZH_COVERB_RE = re.compile(
    r"^(?:和|跟|与|同|被|让|给|替)(?:别人|他人|陌生人|外人|我们?|你们?|他们?|她们?|大家|朋友|同事|"
    r"家人|室友|孩子|老人)"
)
_ZH_MODAL_INSIDE_RE = re.compile(r".(?:要能|必须|需要|可以|得能|应该)")


# What does not fit turns down the kind that does not ("六十升的我家那墙根本挂不下",
# "chest 的太占地了我们那屋根本放不下"): a kind named with 的 opens the clause, a "cannot fit"
# complement ends it.
_ZH_NO_ROOM_RE = re.compile(
    rf"^(?P<opt>{_ZH_NAME}|[{CJK}\d]{{2,8}}?)\s?的[^，,。！!？?]{{0,14}}?[放挂摆停装塞]不(?:下|进去?)(?![来])"
)


# Each clause construction, its family, whether it is a hard limit too, and the characters
# one of which it needs (a clause with none of them skips the pattern).
_ZH_CLAUSE_PATTERNS: tuple[tuple[re.Pattern[str], str, bool, str], ...] = (
    (_ZH_AVERSION_RE, "aversion", False, "讨厌喜欢爱受忍反烦想愿让允禁推接够戒打拒排介许肯"),
    (_ZH_DIET_RE, "aversion", False, "吃喝坐穿"),
    (_ZH_NOT_INTERESTED_RE, "aversion", False, "兴趣好感"),
    (_ZH_CANNOT_RE, "inability", True, "能可法了"),
    (_ZH_CANNOT_SUFFIX_RE, "exclusion", False, "能法"),
    (_ZH_NO_ROOM_RE, "exclusion", False, "下进"),
    (_ZH_TOPIC_FIRST_RE, "aversion", False, _ZH_TURNED_DOWN_KEYS),
    (_ZH_EXCEPT_ALL_RE, "exclusion", False, "除外"),
    (_ZH_NOT_NEEDED_RE, "not_needed", False, "需着必安搞设"),
    (_ZH_NOT_NEEDED_SUFFIX_RE, "not_needed", False, "需用免省"),
    (_ZH_REPLACE_RE, "replacement", False, "换改替代取从与本"),
    (_ZH_WITHDRAW_RE, "withdrawal", False, "取再别要不把掉卸删订戒拜见bye"),
    (_ZH_STEPPED_ON_RE, "bad_experience", False, "踩"),
    (_ZH_LATIN_NO_RE, "refusal", False, "Nn"),
)


def zh_constructions(clause: str) -> list[Construction]:
    found: list[Construction] = []
    if is_zh_condition(clause) and not _ZH_ALLERGY_RE.search(clause):
        return found  # "天气不好的话就算了": a condition, nothing is turned down yet
    # A hedge ("不确定要不要X") keeps every option; an allergy is still a fact to respect.
    allergy_only = bool(ZH_HEDGE_RE.search(clause))

    def add(
        raw: str | None, rest: str, family: str, *, hard: bool = False, single: bool = False
    ) -> None:
        if not raw:
            return
        phrase = zh_option_core(raw)
        if phrase in ZH_NOT_OPTIONS or _ZH_ASPECT_RE.search(phrase) or not_a_zh_topic(phrase):
            return
        if f"{phrase[-1:]}不{phrase[-1:]}" in clause or re.match("宁可|宁愿", phrase):
            return  # "靠不靠谱" asks (A-not-A); "宁可饿一天(都不碰)" is what one would rather do
        if re.match(r"太|很|这么|那么|过于|特别", phrase) and not re.search(r"的.", phrase):
            return  # "不想太早出发", "太贵的(承受不了)" are degrees; "太辣的菜" names dishes
        if _ZH_COVERB_RE.match(phrase) or _ZH_MODAL_INSIDE_RE.search(phrase):
            return  # "(不想)和别人共用", "酒店要能免费(取消)": a clause, not a thing
        diet = raw == phrase and ("不吃" in clause or "不喝" in clause)
        single_ok = single or family in {"exclusion", "inability"} or diet
        if phrase and not (len(phrase) == 1 and not single_ok):
            found.append(Construction(phrase, rest, family, hard))

    for m in _ZH_ALLERGY_RE.finditer(clause):
        add(m.group("opt") or m.group("opt2"), clause[m.end() :], "inability", hard=True)
    if allergy_only:
        return found
    for pattern, family, hard, keys in _ZH_CLAUSE_PATTERNS:
        if not any(key in clause for key in keys):
            continue  # none of the words the construction needs: skip the pattern
        for m in pattern.finditer(clause):
            opt = next((g for g in m.groups() if g), None)
            # The topic-first reading opens the clause with its noun: one character is one
            # ("鱼不要"); elsewhere a lone character is mostly a cut word.
            single = pattern is _ZH_TOPIC_FIRST_RE and m.start() == 0
            if pattern is _ZH_CANNOT_SUFFIX_RE and opt and _ZH_PERSON_RE.fullmatch(opt):
                continue  # "我女儿不能吃花生": the one who cannot, not what is refused
            add(opt, clause[m.end() :], family, hard=hard, single=single)
    for m in _ZH_BAD_EXPERIENCE_RE.finditer(clause):
        if ZH_NEGATIVE_EVAL_RE.search(m.group("eval")):
            # "住老公房被物业坑惨了": the thing runs on to the passive 被, not two characters.
            passive = re.match(rf"[{CJK}]{{1,3}}?(?=[被让])", m.group("eval"))
            tail = passive.group(0) if passive else ""
            add(m.group("opt") + tail, m.group("eval")[len(tail) :], "bad_experience")
    return found


# Chinese chains a story and its verdict with commas ("我们试过钉钉，体验很差"; "本来想买口红，
# 算了"): these two constructions are read over the whole sentence.
_ZH_SENTENCE_RE = re.compile(
    # "除了香菜，别的调料都行": the exclusion and the universal sit in two clauses.
    rf"除了(?P<opt3>{_ZH_NAME}|[{CJK}]{{1,10}}?)(?:以外|之外)?[，,]\s*(?:(?:其他|其它|别的)(?:的)?"
    rf"[{CJK}]{{0,4}}?)?(?:什么)?(?:都|全都|全)(?:可以|行|好|没问题|能接受|OK|ok|随便)"
    r"|"
    rf"(?:用过|试过|吃过|去过|住过|坐过|买过|报过|请过|上过)(?:某|一个|一家)?"
    rf"(?P<opt>{_ZH_NAME}|[{CJK}]{{2,8}}?)[，,\s](?P<eval>[^。！!；;]*)"
    rf"|本来(?:想|打算|要)(?:买|用|去|选|吃|订|报)?(?P<opt2>{_ZH_NAME}|[{CJK}]{{2,10}}?)[，,]\s*算了"
    # "与其为PostgreSQL重新培养人员，我们更倾向于…": the course weighed against is about a name.
    rf"|与其(?:为|用|选|上|买|换)?(?P<opt5>{_ZH_NAME})[^，,。]*[，,][^。]*?(?:不如|倾向|宁可|宁愿)"
    # The option as topic, then the experience: "中介我们之前找过一家，换了三个人都不靠谱".
    rf"|^(?!之前|上次|以前|去年|那次|早年|我|他|她|不|没|别|改|换|想|要)(?P<opt4>{_ZH_NAME}|[{CJK}]{{2,8}}?)(?:{ZH_EXPERIENCER})?(?:之前|上次|以前|去年|那次|早年)?"
    # (A space ends the clause in chat: "麦富迪之前囤过两袋 主子吃完吐了三天".)
    # (除了, 为了 are no past: "婚庆公司除了金夫人，其他都可以".)
    rf"[{CJK}]{{0,2}}?(?:过|(?<![除为])了)[{CJK}\d]{{0,4}}?[，,\s](?P<eval4>[^。！!；;]*)"
)


def chinese_sentence_constructions(sentence: str) -> list[Construction]:
    """A story and its verdict chained with commas (zh_topic_verdicts.py reads a topic and a
    bare verdict on it)."""
    found: list[Construction] = []
    for m in _ZH_SENTENCE_RE.finditer(sentence):
        if m.group("opt") and not ZH_NEGATIVE_EVAL_RE.search(m.group("eval") or ""):
            continue
        if m.group("opt4") and not ZH_NEGATIVE_EVAL_RE.search(m.group("eval4") or ""):
            continue
        if re.search("[别不没]", m.group("opt4") or ""):
            continue  # "周会别搞线下了，…": a verdict of its own, not a topic and its story
        option = zh_option_core(
            m.group("opt") or m.group("opt2") or m.group("opt3") or m.group("opt4")
            or m.group("opt5") or ""
        )
        if not_a_zh_topic(option) or _ZH_ASPECT_RE.search(option):
            continue
        family = "bad_experience" if m.group("opt") or m.group("opt4") else "withdrawal"
        family = "exclusion" if m.group("opt3") else family
        family = "replacement" if m.group("opt5") else family
        if (len(option) > 1 or m.group("opt3")) and option not in ZH_NOT_OPTIONS:
            found.append(Construction(option, m.group("eval") or m.group("eval4") or "", family))
    return found
