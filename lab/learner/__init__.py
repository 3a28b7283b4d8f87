"""The learner's own folder and the Jupyter server around it: mywork.py (copies new lessons into
mywork/, never over the learner's work), startpage.py (mywork/START.md, kept current), and the
server's hooks, frontdoor.py (where `/lab` lands) and jupyter_hooks.py (what a save keeps)."""
