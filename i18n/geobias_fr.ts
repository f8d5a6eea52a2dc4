<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1">
<context>
    <name>@default</name>
    <message>
        <location filename="../plugin.py" line="46" />
        <source>GeoBias survey</source>
        <translation>Enquête GeoBias</translation>
    </message>
    <message>
        <location filename="../plugin.py" line="49" />
        <source>Show or hide the GeoBias dock</source>
        <translation>Afficher ou masquer le panneau GeoBias</translation>
    </message>
    <message>
        <location filename="../processing/provider.py" line="28" />
        <source>GeoBias: geographic bias of large language models</source>
        <translation>GeoBias : biais géographiques des grands modèles de langage</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="24" />
        <source>GeoBias</source>
        <translation>GeoBias</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="16" />
        <source>Draw or pick a study area to start a survey.</source>
        <translation>Dessinez ou choisissez une zone d'étude pour lancer une enquête.</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="15" />
        <source>LLM endpoints used by GeoBias surveys.</source>
        <translation>Points d'accès LLM utilisés par les enquêtes GeoBias.</translation>
    </message>
</context>
</TS>