"""HERB (Li et al., AACL 2022 findings): descriptors and the sentence template
(``descriptors``), region hierarchies (``hierarchy``), sentence scorers for causal and masked
LMs (``scorers``, ``whole_sentence``, ``mlm_worker``), the aggregation into regional bias
(``aggregation``), the released scripts' choices (``reference_code``) and a run through the
cache (``run``). Never imports ``survey``."""
