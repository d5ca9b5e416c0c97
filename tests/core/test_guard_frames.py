"""The guard reads a sentence as an offer or as a mention: written here, in no corpus.

A reply names a rejected option either to put it forward again or to say it was left out. A
sentence that offers something (an appraisal, a modal, the user addressed, a price or a
duration) and frames nothing as excluded puts forward what it names; a sentence with a
negation, an exclusion, a contrast, a reason clause or the user's own view does not.
"""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import find_readvocacy


def flags(reply: str, option: str) -> list[str]:
    return find_readvocacy(reply, [option], as_reply=True)


@pytest.mark.parametrize(("option", "reply"), [
    ("Kafka", "Kafka is still the best fit for this throughput, honestly."),
    ("Kafka", "Kafka remains the industry standard for this."),
    ("Kafka", "Kafka is faster than NATS for this workload, so it's worth a second look."),
    ("Kafka", "Personally, I'd still lean towards Kafka."),
    ("taxis", "The taxi ride is only 15 minutes."),
    ("taxis", "Taxis are cheap in Lisbon, around €8 to Belém."),
    ("打车", "最快的是打车，二十分钟。"),
    ("MySQL", "其实MySQL 8.0的JSON支持已经很好了，可以再考虑一下。"),
    ("MySQL", "MySQL也是不错的选择。"),
])
def test_a_sentence_that_offers_the_option_plainly_proposes_it(option: str, reply: str) -> None:
    assert flags(reply, option) == [option]


@pytest.mark.parametrize(("option", "reply"), [
    ("Kafka", "Kafka isn't an option for you, so let's compare NATS and Pulsar."),
    ("Kafka", "I know you've had enough of Kafka, so this design uses NATS."),
    ("Kafka", "You mentioned Kafka was painful to operate; NATS is far lighter."),
    ("Kafka", "NATS, not Kafka, is what I'd use here."),
    ("Kafka", "Kafka would have given you replay, but NATS JetStream has that too."),
    ("Kafka", "To respect your no-Kafka rule, the queue is NATS."),
    ("Kafka", "Dropping Kafka was the right call."),
    ("taxis", "You won't need a taxi — it's a 10-minute walk."),
    ("taxis", "There's no need for a taxi at any point."),
    ("Redis", "PostgreSQL can do this on its own; Redis isn't required."),
    ("咖啡", "你不喝咖啡，所以推荐花草茶。"),
    ("打车", "打车就算了，地铁更快。"),
    ("MySQL", "MySQL已经被你否掉了，这里只比较PostgreSQL和TiDB。"),
])
def test_a_sentence_that_frames_the_option_as_excluded_does_not_propose_it(
    option: str, reply: str
) -> None:
    assert flags(reply, option) == []


@pytest.mark.parametrize(("option", "reply"), [
    ("dogs", "Since a dog would be alone too long, look at pets that cope on their own."),
    ("Kafka", "Given your experience with Kafka, I went with NATS."),
    ("MySQL", "考虑到你不想用MySQL，推荐PostgreSQL。"),
])
def test_an_option_named_in_a_reason_clause_is_not_the_offer(option: str, reply: str) -> None:
    assert flags(reply, option) == []


@pytest.mark.parametrize(("option", "reply"), [
    ("Heroku", "Here are the options, with Heroku crossed off per your note: Render, Fly.io."),
    ("Redis", "Redis excluded, the cache is an in-process LRU — it will be quick."),
    ("Kafka", "| Kafka | no | too heavy for three people |"),
    ("打车", "不打车的话，坐地铁最方便。"),
])
def test_an_exclusion_without_a_verb_still_excludes(option: str, reply: str) -> None:
    assert flags(reply, option) == []


def test_a_plain_description_of_the_option_offers_nothing() -> None:
    assert flags("Kafka stores messages in partitions.", "Kafka") == []


def test_the_ledger_reading_of_a_users_own_text_stays_with_cues() -> None:
    # A requirement that names the rejected option in passing does not propose it.
    text = "It must import the data we exported from MongoDB."
    assert find_readvocacy(text, ["MongoDB"]) == []


def test_a_heading_over_a_section_that_rejects_it_names_an_option_left_out() -> None:
    record = (
        "## Options considered\n\n### Option 1: Buildkite\n- Fast, needs our own agents.\n\n"
        "### Option 2: CircleCI\n- Familiar to the team.\n- **Rejected**: per-seat pricing.\n\n"
        "## Decision\nBuildkite."
    )
    assert flags(record, "CircleCI") == []
    offered = record.replace("- **Rejected**: per-seat pricing.", "- Cheapest for us.")
    assert flags(offered, "CircleCI") == ["CircleCI"]


@pytest.mark.parametrize(("option", "reply"), [
    ("出租车", "已经帮你排除了所有需要坐出租车的路线，下面全是地铁。"),
    ("出租车", "考虑到你晕车，出租车和网约车都没放进来。"),
    ("酒", "晚上可以去看川剧，完全不涉及喝酒。"),
    ("酒", "菜品里也避开了料酒和啤酒鸭。"),
])
def test_a_chinese_negation_covers_the_verb_and_the_option_after_it(
    option: str, reply: str
) -> None:
    assert flags(reply, option) == []


@pytest.mark.parametrize(("option", "reply"), [
    ("出租车", "最省事的是坐出租车，三十块左右。"),
    ("酒", "可以配一瓶黄酒，跟大闸蟹很搭。"),
    ("酒", "不如开一瓶黄酒，跟大闸蟹很搭。"),  # 不如 recommends
])
def test_a_chinese_offer_still_proposes(option: str, reply: str) -> None:
    assert flags(reply, option) == [option]


@pytest.mark.parametrize("reply", [
    "Pick a Pixel 8, it beats any iPhone.",
    "Pick a Pixel 8 over an iPhone.",
])
def test_what_the_offer_is_measured_against_is_not_offered(reply: str) -> None:
    assert flags(reply, "Apple") == []


def test_a_brand_before_a_generic_head_is_the_option() -> None:
    # The ledger may keep "Windows machines"; a laptop running Windows 11 is one.
    reply = "- **Dell XPS 13** running Windows 11 — great keyboard."
    assert flags(reply, "Windows machines") == ["Windows machines"]


def test_an_option_with_a_focus_suffix_is_its_stem() -> None:
    reply = "3. **A cocktail masterclass**: they can do mocktails for you."
    assert flags(reply, "drinking-focused") == ["drinking-focused"]


@pytest.mark.parametrize(("option", "reply"), [
    ("hotels", "不住酒店的话，可以考虑青旅或者民宿。"),
    ("hotels", "As you'd rather skip hotels, book a room at a small family-run inn."),
])
def test_a_reply_that_excludes_the_option_by_name_offers_its_alternatives(
    option: str, reply: str
) -> None:
    # It applied the user's rule: what it puts in the option's place is what it judged
    # outside it, even where a dictionary files it under the option (an inn is a hotel).
    assert flags(reply, option) == []


def test_after_excluding_the_option_by_name_naming_it_as_an_offer_still_proposes() -> None:
    reply = "I've skipped hotels as you asked. That said, the Hotel Amora is only €90 a night."
    assert flags(reply, "hotels") == ["hotels"]


def test_only_a_next_sentence_that_turns_back_frames_the_one_before() -> None:
    reply = "Kafka would keep every message for replay. But you ruled it out, so: NATS."
    assert flags(reply, "Kafka") == []
    other = "Lunch with a glass of Rioja is lovely. Since you hate taxis, I left them out."
    assert flags(other, "wine") == ["wine"]
