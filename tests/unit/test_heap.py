"""few_collections: what it freezes and gives back, nested (a build that plays games) or alone."""
import gc

from generator.heap import few_collections


def test_a_block_freezes_then_gives_everything_back():
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    with few_collections((1234, 5, 6)):
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (1234, 5, 6)
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == before


def test_an_inner_block_leaves_the_outer_blocks_objects_frozen():
    with few_collections((1000, 10, 10)):
        made_in_between = [[] for _ in range(1000)]
        frozen_by_outer = gc.get_freeze_count()
        with few_collections((2000, 10, 10)):
            assert gc.get_freeze_count() >= frozen_by_outer + 1000  # what the outer block made since
        assert gc.get_freeze_count() >= frozen_by_outer
        assert gc.get_threshold() == (1000, 10, 10)
        del made_in_between
    assert gc.get_freeze_count() == 0


def test_a_failing_block_gives_everything_back():
    before = gc.get_threshold()
    try:
        with few_collections():
            raise KeyError("x")
    except KeyError:
        pass
    assert (gc.get_freeze_count(), gc.get_threshold()) == (0, before)
